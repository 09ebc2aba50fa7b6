// The Twilio-compatible SMS adapter against a local Twilio-shaped server: the form it posts, Basic
// auth, and every failure (401, 500, a 2xx without sid, an unreachable URL) as a DeliveryError in
// which neither the auth token nor the message body appears; nor do they appear in the logs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDelivery } from '../../src/integrations/delivery.js';
import { DeliveryError } from '../../src/integrations/errors.js';
import { createSmsSender } from '../../src/integrations/sms.js';
import { memoryLogger } from '../helpers/memory-log.js';
import { loopbackOutbound } from '../helpers/outbound.js';
import { startSmsSink, type SmsSink } from '../helpers/sms-sink.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'tok3n-that-must-never-leak-0123456789';
const FROM = '+15005550006';

const isDeliveryError =
  (failure: string, status?: number) =>
  (e: unknown): boolean => {
    assert.ok(e instanceof DeliveryError, String(e));
    assert.equal(e.channel, 'sms');
    assert.equal(e.failure, failure);
    assert.equal(e.status, status);
    assert.ok(!e.message.includes(TOKEN), e.message);
    return true;
  };

describe('Twilio-compatible SMS adapter', () => {
  let sink: SmsSink;
  const outbound = loopbackOutbound();
  before(async () => {
    sink = await startSmsSink({ accountSid: SID, authToken: TOKEN });
  });
  after(async () => {
    await sink.close();
    await outbound.close();
  });

  it('posts To, From and Body as a form, with Basic auth, to the Messages resource', async () => {
    await createSmsSender({ baseUrl: sink.url, accountSid: SID, authToken: TOKEN, from: FROM, outbound }).send(
      '+33612345678',
      '482913 est votre code. Il expire dans 5 min.',
    );
    const got = await sink.next('+33612345678');
    assert.equal(got.from, FROM);
    assert.equal(got.body, '482913 est votre code. Il expire dans 5 min.');
    assert.match(got.sid, /^SM[0-9a-f]{32}$/);
    assert.deepEqual(got.request, {
      method: 'POST',
      path: `/2010-04-01/Accounts/${SID}/Messages.json`,
      contentType: 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
    });
  });

  it('accepts a base URL with a trailing slash', async () => {
    await createSmsSender({ baseUrl: `${sink.url}/`, accountSid: SID, authToken: TOKEN, from: FROM, outbound }).send(
      '+447700900123',
      'hello',
    );
    assert.equal((await sink.next('+447700900123')).body, 'hello');
  });

  it('fails on a 401 for a wrong token, as Twilio answers', async () => {
    const before = sink.messages.length;
    await assert.rejects(
      createSmsSender({ baseUrl: sink.url, accountSid: SID, authToken: 'wrong-token', from: FROM, outbound }).send(
        '+33612345678',
        'x',
      ),
      isDeliveryError('refused', 401),
    );
    assert.equal(sink.messages.length, before);
  });

  it('fails on a 500, and on a 2xx that is not a 201 with a sid', async () => {
    const sms = createSmsSender({ baseUrl: sink.url, accountSid: SID, authToken: TOKEN, from: FROM, outbound });
    sink.failNext(500);
    await assert.rejects(sms.send('+33612345678', 'x'), isDeliveryError('unavailable', 500));
    sink.failNext(201, '{"status":"queued"}');
    await assert.rejects(sms.send('+33612345678', 'x'), isDeliveryError('unavailable', 201));
    sink.failNext(201, 'not json');
    await assert.rejects(sms.send('+33612345678', 'x'), isDeliveryError('unavailable', 201));
    sink.failNext(200, '{"sid":"SM0"}');
    await assert.rejects(sms.send('+33612345678', 'x'), isDeliveryError('refused', 200));
    sink.failNext(302, '');
    await assert.rejects(sms.send('+33612345678', 'x'), isDeliveryError('refused', 302));
  });

  it("keeps Twilio's error code and message, with the token and the body scrubbed from it", async () => {
    sink.failNext(
      400,
      JSON.stringify({ code: 21211, message: `Invalid 'To' for ${TOKEN}: 555111 is your code`, status: 400 }),
    );
    await assert.rejects(
      createSmsSender({ baseUrl: sink.url, accountSid: SID, authToken: TOKEN, from: FROM, outbound }).send(
        '+33612345678',
        '555111 is your code',
      ),
      (e: unknown) => {
        isDeliveryError('refused', 400)(e);
        const message = (e as Error).message;
        assert.match(message, /answered 400 21211: Invalid 'To' for \[redacted\]: \[redacted\]/);
        assert.ok(!message.includes('555111'), message);
        return true;
      },
    );
  });

  it('fails when the provider cannot be reached', async () => {
    const gone = await startSmsSink({ accountSid: SID, authToken: TOKEN });
    await gone.close();
    await assert.rejects(
      createSmsSender({ baseUrl: gone.url, accountSid: SID, authToken: TOKEN, from: FROM, outbound }).send(
        '+33612345678',
        'x',
      ),
      isDeliveryError('unavailable', undefined),
    );
  });

  it('refuses an empty phone number without calling the provider', async () => {
    const before = sink.requests;
    await assert.rejects(
      createSmsSender({ baseUrl: sink.url, accountSid: SID, authToken: TOKEN, from: FROM, outbound }).send(' ', 'x'),
      isDeliveryError('invalid_destination', undefined),
    );
    assert.equal(sink.requests, before);
  });

  it('never writes the auth token, nor the code, to the logs, whether the send succeeds or fails', async () => {
    const { log, lines } = memoryLogger();
    const config = {
      mode: 'production' as const,
      smtpUrl: null,
      mailFrom: 'Ward <no-reply@ward.test>',
      smsUrl: sink.url,
      smsAccountSid: SID,
      smsAuthToken: TOKEN,
      smsFrom: FROM,
    };
    const delivery = createDelivery(config, log, { outbound });
    const send = (code: string) =>
      delivery.sendCode({ channel: 'sms', to: '+33699887766', purpose: 'stepup', code, ttlSeconds: 300 });

    await send('901234');
    assert.match((await sink.next('+33699887766')).body, /^901234 /);
    sink.failNext(500);
    await assert.rejects(send('901235'), DeliveryError);
    sink.failNext(400, JSON.stringify({ code: 21211, message: `echo ${TOKEN} 901236` }));
    await assert.rejects(send('901236'), DeliveryError);
    const badToken = createDelivery({ ...config, smsAuthToken: `${TOKEN}-wrong` }, log, { outbound });
    await assert.rejects(
      badToken.sendCode({ channel: 'sms', to: '+33699887766', purpose: 'stepup', code: '901237', ttlSeconds: 300 }),
      DeliveryError,
    );

    assert.ok(lines.length >= 4, `expected log lines, got ${lines.length}`);
    const all = lines.join('\n');
    for (const secret of [
      TOKEN,
      Buffer.from(`${SID}:${TOKEN}`).toString('base64'),
      '901234',
      '901235',
      '901236',
      '901237',
      '+33699887766',
    ]) {
      assert.ok(!all.includes(secret), `${secret} in the logs:\n${all}`);
    }
    assert.match(all, /verification code sent/);
    assert.match(all, /verification code delivery failed/);
  });
});
