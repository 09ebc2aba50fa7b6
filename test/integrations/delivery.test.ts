// The verification-code delivery: through SMTP and the SMS API when configured; without them, the
// development outbox (the code in the log, under the production redaction) in development mode, and
// a DeliveryError with a warning that holds no code in production mode.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DeliveryConfig } from '../../src/config/types.js';
import { createDelivery, DeliveryError } from '../../src/integrations/delivery.js';
import { memoryLogger } from '../helpers/memory-log.js';
import { loopbackOutbound } from '../helpers/outbound.js';
import { startSmsSink, type SmsSink } from '../helpers/sms-sink.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

const NONE: DeliveryConfig = {
  mode: 'development',
  smtpUrl: null,
  mailFrom: 'Ward <no-reply@ward.test>',
  smsUrl: null,
  smsAccountSid: null,
  smsAuthToken: null,
  smsFrom: null,
};
const SID = 'AC00000000000000000000000000000001';
const TOKEN = 'delivery-test-token-0123456789';

describe('verification code delivery', () => {
  let smtp: SmtpSink;
  let sms: SmsSink;
  const outbound = loopbackOutbound();
  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink({ accountSid: SID, authToken: TOKEN });
  });
  after(async () => {
    await smtp.close();
    await sms.close();
    await outbound.close();
  });

  it('in development mode without transports, writes each message with its code to the development outbox', async () => {
    const { log, parsed } = memoryLogger();
    const delivery = createDelivery(NONE, log);
    await delivery.sendCode({
      channel: 'email',
      to: 'alice@example.com',
      purpose: 'stepup',
      code: '314159',
      ttlSeconds: 300,
    });
    await delivery.sendCode({
      channel: 'sms',
      to: '+33612345678',
      purpose: 'register',
      code: '271828',
      ttlSeconds: 300,
      locale: 'fr',
    });
    const [email, text] = parsed();
    assert.equal(email.level, 30);
    assert.match(email.msg, /^DEVELOPMENT OUTBOX \(not sent: no SMTP server is configured/);
    assert.match(email.msg, /email to alice@example.com, verification code 314159/);
    const outbox = email.dev_outbox as Record<string, string>;
    assert.equal(outbox.to, 'alice@example.com');
    assert.equal(outbox.subject, '314159 is your Ward verification code');
    assert.match(outbox.body, /314159/);
    assert.equal(text.level, 30);
    assert.match(text.msg, /^DEVELOPMENT OUTBOX \(not sent: no SMS provider is configured/);
    assert.match(text.msg, /verification code 271828/);
    assert.match((text.dev_outbox as Record<string, string>).body, /^271828 est votre code pour confirmer ce numéro/);
  });

  it('in production mode without transports, throws and logs a warning that holds no code', async () => {
    const { log, lines, parsed } = memoryLogger();
    const delivery = createDelivery({ ...NONE, mode: 'production' }, log);
    for (const channel of ['email', 'sms'] as const) {
      await assert.rejects(
        delivery.sendCode({
          channel,
          to: channel === 'email' ? 'bob@example.com' : '+33698765432',
          purpose: 'stepup',
          code: '161803',
          ttlSeconds: 300,
        }),
        (e: unknown) => {
          assert.ok(e instanceof DeliveryError);
          assert.equal(e.channel, channel);
          assert.equal(e.failure, 'not_configured');
          assert.ok(!e.message.includes('161803'));
          return true;
        },
      );
    }
    assert.deepEqual(
      parsed().map((l) => l.level),
      [40, 40],
    );
    assert.match(parsed()[0].msg, /not sent: no SMTP server is configured/);
    assert.match(parsed()[1].msg, /not sent: no SMS provider is configured/);
    const all = lines.join('\n');
    assert.ok(!all.includes('161803'), all);
    assert.ok(!/DEVELOPMENT OUTBOX/.test(all));
  });

  it('sends through SMTP and the SMS API when they are configured, even in development mode, without logging the code', async () => {
    const { log, lines } = memoryLogger();
    const config: DeliveryConfig = {
      ...NONE,
      smtpUrl: smtp.url,
      smsUrl: sms.url,
      smsAccountSid: SID,
      smsAuthToken: TOKEN,
      smsFrom: 'Ward',
    };
    const delivery = createDelivery(config, log, { appName: 'Shop', outbound });
    await delivery.sendCode({
      channel: 'email',
      to: 'carol@example.com',
      purpose: 'stepup',
      code: '577215',
      ttlSeconds: 120,
      locale: 'fr-CA',
    });
    await delivery.sendCode({ channel: 'sms', to: '+14155550100', purpose: 'stepup', code: '662607', ttlSeconds: 120 });
    const mail = await smtp.next('carol@example.com');
    assert.equal(mail.subject, '577215 est votre code de vérification Shop');
    assert.equal(mail.from, 'no-reply@ward.test');
    const text = await sms.next('+14155550100');
    assert.equal(text.body, '662607 is your Shop verification code. It expires in 2 min. Never share it.');
    assert.equal(text.from, 'Ward');
    const all = lines.join('\n');
    for (const secret of ['577215', '662607', TOKEN, 'carol@example.com', '+14155550100'])
      assert.ok(!all.includes(secret), `${secret} in:\n${all}`);
    assert.equal(lines.length, 2);
    assert.match(all, /"to":"c\*\*\*@example.com"/);
  });

  it('throws a DeliveryError, and logs an error without the code, when a configured transport fails', async () => {
    const { log, lines, parsed } = memoryLogger();
    const gone = await startSmtpSink();
    await gone.close();
    const delivery = createDelivery(
      {
        ...NONE,
        mode: 'production',
        smtpUrl: gone.url,
        smsUrl: sms.url,
        smsAccountSid: SID,
        smsAuthToken: TOKEN,
        smsFrom: 'Ward',
      },
      log,
      { outbound },
    );
    await assert.rejects(
      delivery.sendCode({ channel: 'email', to: 'dan@example.com', purpose: 'stepup', code: '141421', ttlSeconds: 60 }),
      (e: unknown) => e instanceof DeliveryError && e.channel === 'email' && e.failure === 'unavailable',
    );
    sms.failNext(503);
    await assert.rejects(
      delivery.sendCode({ channel: 'sms', to: '+14155550101', purpose: 'stepup', code: '173205', ttlSeconds: 60 }),
      (e: unknown) => e instanceof DeliveryError && e.status === 503,
    );
    assert.deepEqual(
      parsed().map((l) => l.level),
      [50, 50],
    );
    const all = lines.join('\n');
    for (const secret of ['141421', '173205', TOKEN]) assert.ok(!all.includes(secret), `${secret} in:\n${all}`);
  });

  it('refuses an empty destination in every mode, before any transport or outbox', async () => {
    for (const mode of ['development', 'production'] as const) {
      const { log, lines } = memoryLogger();
      const delivery = createDelivery({ ...NONE, mode }, log);
      for (const channel of ['email', 'sms'] as const) {
        await assert.rejects(
          delivery.sendCode({ channel, to: '   ', purpose: 'stepup', code: '999999', ttlSeconds: 60 }),
          (e: unknown) => e instanceof DeliveryError && e.failure === 'invalid_destination',
        );
      }
      assert.equal(lines.length, 0);
    }
  });

  it('logs a security notice that cannot be written (they leave in the background), with the destination masked', async () => {
    const { log, parsed } = memoryLogger();
    const delivery = createDelivery(NONE, log);
    const bad = {
      channel: 'email',
      to: 'carol@example.com',
      change: 'factor_renamed',
      factor: 'email',
      masked: 'c***@example.com',
      at: 0,
    } as unknown as Parameters<typeof delivery.sendNotice>[0];
    await assert.rejects(delivery.sendNotice(bad), /unknown change/);
    const [line] = parsed();
    assert.equal(line.level, 50);
    assert.equal(line.msg, 'security notice could not be written');
    assert.match((line.err as { message: string }).message, /unknown change/);
    assert.ok(!JSON.stringify(line).includes('carol@example.com'), 'the address is masked');
  });
});
