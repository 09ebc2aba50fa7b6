// MF-03 / ASVS 6.3.7: a second factor added or removed is told to the user through the channels the
// account already had (a real SMTP server and the Twilio-compatible SMS sink on loopback): the
// account email, and each verified factor as it was before the change (a removed phone is told it
// was removed); the factor just added is not. The change stands when a notice cannot be delivered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { metricValue } from '../helpers/metrics.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { OPEN, bearer, del, plainToken, steppedUpToken } from './support.js';

const post = (m: MfaWard, path: string, access: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  postJson(m.ward, `/identity/v1/mfa/credentials${path}`, body, { ...bearer(access), ...headers });
const notices = async (m: MfaWard, channel: 'email' | 'sms', outcome: 'sent' | 'failed') =>
  metricValue(
    await (await m.ward.fetch('/metrics')).text(),
    `ward_security_notices_total{channel="${channel}",outcome="${outcome}"}`,
  );

describe('MFA factor changes are told to the user (MF-03)', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT], account: { ...OPEN } });
  });
  after(() => m.close());

  it('adding a phone is told by email; removing it, by email and by SMS to that phone', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email });
    const stepped = await steppedUpToken(m, user, access);
    const sentBefore = await notices(m, 'email', 'sent');

    assert.deepEqual((await post(m, '/phone-numbers', stepped.access, { phone_number: '+33655443322' })).body, {
      status: 'sms_sent',
    });
    const code = codeIn((await m.sms.next('+33655443322')).body);
    assert.equal((await post(m, '/phone-numbers/verify', stepped.access, { verification_code: code })).status, 204);
    const added = await m.smtp.next(user.email);
    assert.match(added.subject, /second factor was added/);
    assert.match(added.text, /the phone number \+33\*+22 was added/);
    assert.ok(!added.raw.includes('655443322'), 'the new number is masked');
    assert.match(added.html, /\+33\*+22/);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(
      m.sms.messages.filter((s) => s.to === '+33655443322').length,
      1,
      'the new phone got its code, no notice',
    );

    const gone = await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(stepped.access), {
      phone_number: '+33655443322',
    });
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    const removed = await m.smtp.next(user.email);
    assert.match(removed.subject, /second factor was removed/);
    assert.match(removed.text, /\+33\*+22 was removed/);
    const toPhone = await m.sms.next('+33655443322');
    assert.match(toPhone.body, /\+33\*+22 was removed/);
    assert.ok(toPhone.body.length <= 160);
    assert.equal(await notices(m, 'email', 'sent'), sentBefore + 2);
    assert.equal((await notices(m, 'sms', 'sent')) >= 1, true);
  });

  it('speaks the language of the request, and a first factor is told to nobody else', async () => {
    const { user, access } = await plainToken(m);
    // The first factor is the account's own email address: nobody else to tell.
    assert.deepEqual((await post(m, '/emails', access)).body, { status: 'email_sent' });
    const code = codeIn((await m.smtp.next(user.email)).text);
    assert.equal((await post(m, '/emails/verify', access, { verification_code: code })).status, 204);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(
      m.smtp.messages.filter((x) => x.to.toLowerCase() === user.email.toLowerCase()).length,
      1,
      'the code only',
    );

    const stepped = await steppedUpToken(m, user, access);
    const gone = await m.ward.fetch('/identity/v1/mfa/credentials/emails', {
      method: 'DELETE',
      headers: { ...bearer(stepped.access), 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    assert.equal(gone.status, 204);
    const notice = await m.smtp.next(user.email);
    assert.match(notice.subject, /Un second facteur a été retiré/);
    assert.match(notice.text, /l'adresse e-mail .\*\*\*@/);
    assert.ok(notice.html.includes('lang="fr"'));
  });

  it('a notice that cannot be delivered is logged (masked) and counted; the change stands', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33677889900' });
    const stepped = await steppedUpToken(m, user, access);
    const failedBefore = await notices(m, 'email', 'failed');
    m.smtp.rejectNext(550);
    const gone = await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(stepped.access), {
      phone_number: '+33677889900',
    });
    assert.equal(gone.status, 204);
    assert.match((await m.sms.next('+33677889900')).body, /was removed/, 'the other channel still told');
    await m.ward.registry.notices.drain();
    assert.equal(await notices(m, 'email', 'failed'), failedBefore + 1);
    const line = m.ward.logs.find((l) => l.includes('security notice delivery failed'));
    assert.ok(line, 'the failure is logged');
    assert.ok(!line.includes(user.email), 'the address is masked in the log');
    assert.deepEqual(
      (await m.ward.registry.storage.mfaCredentials.listOfUser(user.id)).map((c) => c.type),
      ['email'],
    );
  });

  it('a factor removed by a Manager in the console is told to the user too', async () => {
    const manager = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
    const { user } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33611002200' });
    const sms = (await manager.get(`/api/v1/users/${user.id}`)).body.mfa_credentials.find(
      (c: { type: string }) => c.type === 'sms',
    );
    assert.equal((await manager.del(`/api/v1/users/${user.id}/mfa-credentials/${sms.id}`)).status, 204);
    assert.match((await m.smtp.next(user.email)).text, /\+33\*+00 was removed/);
    assert.match((await m.sms.next('+33611002200')).body, /was removed/);
  });
});
