// The catalog types of a user's own account changes, each produced by its real action on both engines
// (issue #35: every type by its real action), received on loopback, verified with `standardwebhooks`
// and checked against its schema: passkey.added (the Core SDK's registration with a software
// authenticator), mfa.factor_added (an email factor registered and confirmed by its mailed code),
// user.email_verified (the emailed code), identity.linked (social login on the account's email, the link
// page's password), identity.unlinked (the Core SDK's unlink), user.password_reset (forgot-password,
// then the mailed code), and mfa.factor_removed and passkey.removed (the management API); and the
// user.created of an account made by a first passwordless sign-in (a magic link's code).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { envelopeSchema, isEventType } from '../../src/webhooks/catalog.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { authorizeUrl, codeFor, location, pkcePair, PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { deliverUntil, MANAGER, managerToken, verify } from './manager.js';
import { Receiver } from './receiver.js';

const ORIGIN = 'https://app.example';
const W = '/identity/v1/webauthn';
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

for (const engine of engines()) {
  describe(`webhook catalog: a user's own account changes (${engine})`, () => {
    let m: MfaWard;
    let idp: TinyIdp;
    const receiver = new Receiver();
    before(async () => {
      idp = await startTinyIdp();
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, MANAGER],
        account: {
          rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
          passkeys: { enabled: true, rp_id: 'app.example', origins: [ORIGIN] },
          passwordless: { magic_link: true, sms: false, signup: true },
        },
        socialProviders: [
          {
            name: 'corp',
            type: 'oidc',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            label: 'Corp',
          },
        ],
      });
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await m.close();
      await idp.close();
    });

    /** The code of the next message to `to` whose subject matches (notices in between are skipped). */
    async function mailedCode(to: string, subject: RegExp): Promise<string> {
      for (;;) {
        const mail = await m.smtp.next(to);
        if (subject.test(mail.subject)) return codeIn(mail.text.replace(/https?:\/\/\S+/g, '').replaceAll(to, ''));
      }
    }

    it('passkeys, factors, email verification, identities and a password reset, each by its action', async () => {
      const { ward } = m;
      const admin = api(ward, await managerToken(ward));
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['*'] });
      assert.equal(made.status, 201);
      const { code, verifier, user } = await codeFor(ward);
      const { body: tokens } = await redeem(ward, code, verifier);
      const bearer = { authorization: `Bearer ${tokens.access_token as string}` };

      // A passkey registered through the Core SDK.
      const options = await postJson(ward, `${W}/registration-options`, { origin: ORIGIN }, bearer);
      assert.equal(options.status, 200, JSON.stringify(options.body));
      const credential = new SoftAuthenticator().create(options.body.options.public_key, ORIGIN);
      const registered = await postJson(ward, `${W}/registration`, credential, bearer);
      assert.equal(registered.status, 204, JSON.stringify(registered.body));

      // An email verified by its code.
      const sent = await postJson(ward, '/identity/v1/send-email-verification', {}, bearer);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const verified = await postJson(ward, '/identity/v1/verify-email', {
        access_token: tokens.access_token,
        email: user.email,
        verification_code: await mailedCode(user.email, /^Confirm your email/),
      });
      assert.equal(verified.status, 204, JSON.stringify(verified.body));

      // An email second factor, confirmed by its code.
      assert.equal((await postJson(ward, '/identity/v1/mfa/credentials/emails', {}, bearer)).status, 200);
      const confirmed = await postJson(
        ward,
        '/identity/v1/mfa/credentials/emails/verify',
        { verification_code: await mailedCode(user.email, /verification code/) },
        bearer,
      );
      assert.equal(confirmed.status, 204, JSON.stringify(confirmed.body));

      // Social login on the account's email, linked on the link page with the account's password.
      idp.account = {
        sub: `corp-${engine}`,
        email: user.email,
        email_verified: true,
        given_name: 'A',
        family_name: 'B',
      };
      const browser = new Browser(ward);
      const start = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          provider: 'corp',
        }),
      );
      const back = await browser.get(location(start).toString());
      const html = await (await browser.get(location(back).toString())).text();
      const linked = await browser.postForm('/identity/v1/oauth/link', {
        link_token: field(html, 'link_token'),
        csrf: field(html, 'csrf'),
        password: user.password,
      });
      assert.ok(linked.status < 400, `linked: ${linked.status}`);
      const unlinked = await postJson(ward, '/identity/v1/unlink', { provider: 'corp' }, bearer);
      assert.equal(unlinked.status, 204, JSON.stringify(unlinked.body));

      // The management API removes the factor and the passkey.
      const shown = (await admin.get(`/api/v1/users/${user.id}`)).body as { mfa_credentials: Array<{ id: string }> };
      const factor = shown.mfa_credentials[0]!.id;
      assert.equal((await admin.del(`/api/v1/users/${user.id}/mfa-credentials/${factor}`)).status, 204);
      const passkeys = (await admin.get(`/api/v1/users/${user.id}/passkeys`)).body as Array<{ id: string }>;
      const passkey = passkeys[0]!.id;
      assert.equal((await admin.del(`/api/v1/users/${user.id}/passkeys/${passkey}`)).status, 204);

      // A forgotten password, reset with the mailed code.
      const forgot = await postJson(ward, '/identity/v1/forgot-password', { client_id: 'spa', email: user.email });
      assert.equal(forgot.status, 204);
      const reset = await postJson(ward, '/identity/v1/update-password', {
        client_id: 'spa',
        email: user.email,
        verification_code: await mailedCode(user.email, /^Reset your/),
        password: 'another good long password',
      });
      assert.equal(reset.status, 204, JSON.stringify(reset.body));

      const expected = [
        'passkey.added',
        'user.email_verified',
        'mfa.factor_added',
        'identity.linked',
        'identity.unlinked',
        'mfa.factor_removed',
        'passkey.removed',
        'user.password_reset',
      ];
      const types = () => new Set(receiver.delivered().map((e) => e.type));
      await deliverUntil(ward, () => expected.every((t) => types().has(t)), 0, JSON.stringify([...types()]));
      for (const r of receiver.received) {
        const event = verify(made.body.secret as string, r) as { type: string };
        assert.ok(isEventType(event.type));
        assert.ok(Value.Check(envelopeSchema(event.type), event), `${r.body} fits the ${event.type} schema`);
        for (const secret of [user.password, 'another good long password', tokens.access_token as string])
          assert.ok(!r.body.includes(secret), 'no password nor token in an event');
      }
      const one = (t: string) => receiver.delivered().find((e) => e.type === t)!.data;
      for (const t of expected) assert.equal(one(t).user_id, user.id, `${t} names the user`);
      assert.equal((one('user.email_verified').user as { email_verified: boolean }).email_verified, true);
      assert.equal((one('user.password_reset').user as { email: string }).email, user.email);
      assert.equal(one('mfa.factor_added').type, 'email');
      assert.equal(one('mfa.factor_removed').type, 'email');
      assert.equal(one('identity.linked').provider, 'corp');
      assert.equal(one('identity.unlinked').provider, 'corp');
    });

    it('user.created for an account made by a first passwordless sign-in', async () => {
      const { ward } = m;
      const admin = api(ward, await managerToken(ward));
      // This endpoint only (the previous test's would get the event too).
      for (const w of (await admin.get('/api/v1/webhooks')).body.webhooks)
        assert.equal((await admin.del(`/api/v1/webhooks/${w.id as string}`)).status, 204);
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['user.created'] });
      assert.equal(made.status, 201);
      const email = `magic-${engine}@example.com`;
      const started = await postJson(ward, '/identity/v1/passwordless/start', {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid email',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        auth_type: 'magic_link',
        email,
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const verified = await postJson(ward, '/identity/v1/passwordless/verify', {
        auth_type: 'magic_link',
        email,
        verification_code: await mailedCode(email, /^Sign in to/),
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      const user = await ward.registry.storage.users.findByEmail(email);
      assert.ok(user, 'created');
      const mine = () => receiver.delivered().filter((e) => e.type === 'user.created' && e.data.user_id === user.id);
      await deliverUntil(ward, () => mine().length === 1);
      const r = receiver.received.find((x) => x.body.includes(user.id) && x.body.includes('user.created'))!;
      const event = verify(made.body.secret as string, r) as { type: 'user.created' };
      assert.ok(Value.Check(envelopeSchema(event.type), event), r.body);
      assert.equal(mine()[0]!.data.method, 'magic_link');
      assert.equal((mine()[0]!.data.user as { email: string }).email, email);
    });
  });
}
