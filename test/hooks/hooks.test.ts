// Blocking hooks (issue #35, item 5) on both engines, with a real HTTP receiver on loopback: hooks
// registered through the management API; a denied before.signup creates nothing and its message
// reaches the SDK's JSON and the hosted signup page; an allowing hook sets a custom field; a
// before.token hook adds a claim to the ID token; a registered claim is refused; a hook that times out
// follows its failure policy; every call is signed (verified with the `standardwebhooks` package) and
// recorded.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Webhook } from 'standardwebhooks';
import { updateHook } from '../../src/hooks/hooks.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import {
  authorizeUrl,
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  codeFor,
  PUBLIC_CLIENT,
  passwordLogin,
  redeem,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { Receiver } from '../webhooks/receiver.js';

const SECRET = 'hook-manager-secret-of-at-least-40-chars!!';
const MANAGER = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:webhooks', 'manage:clients'],
};
const CUSTOM_FIELDS = [
  { name: 'crm_id', data_type: 'string', required: false, writable: 'admin' },
  { name: 'newsletter', data_type: 'boolean', required: false, writable: 'user' },
];
const PASSWORD = 'a long and unusual passphrase';

/** A hidden input's value in a page. */
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

/** The receiver answers this JSON with a 200. */
const answerJson = (body: unknown) => (res: import('node:http').ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

for (const engine of engines()) {
  describe(`blocking hooks (${engine})`, () => {
    let ward: TestWard;
    let receiver: Receiver;
    let admin: ReturnType<typeof api>;
    let n = 0;
    const email = () => `hooked-${++n}-${engine}@example.com`;

    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, MANAGER, { ...CONFIDENTIAL_CLIENT, grant_types: ['authorization_code', 'password'] }],
        account: { custom_fields: CUSTOM_FIELDS, rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
    });
    after(() => ward.close());
    beforeEach(async () => {
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: SECRET,
      });
      admin = api(ward, ((await res.json()) as { access_token: string }).access_token);
      const listed = await admin.get('/api/v1/hooks');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      for (const h of listed.body.hooks) await admin.del(`/api/v1/hooks/${h.id as string}`);
      receiver = new Receiver();
      await receiver.start();
    });
    afterEach(() => receiver.close());

    /** Registers a hook at the receiver; answers its id and secret. */
    async function hook(event: string, more: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
      const made = await admin.post('/api/v1/hooks', { url: receiver.url, event, ...more });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return { id: made.body.id, secret: made.body.secret };
    }

    /** The n-th request the receiver got, its signature verified with the hook's secret: its envelope. */
    function received(secret: string, i = 0) {
      const r = receiver.received[i];
      assert.ok(r, `no call ${i}`);
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
        id: string;
        type: string;
        timestamp: string;
        data: Record<string, any>;
      };
    }

    const sdkSignup = (data: Record<string, unknown>) =>
      ward.fetch('/identity/v1/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid profile email', data }),
      });

    async function calls(id: string) {
      const res = await admin.get(`/api/v1/hooks/${id}/calls`);
      assert.equal(res.status, 200);
      return res.body.calls as Array<Record<string, any>>;
    }

    it('manages hooks: defaults, bounds, the secret shown once and sealed, audited, in the OpenAPI document', async () => {
      assert.equal((await admin.post('/api/v1/hooks', { url: receiver.url, event: 'before.lunch' })).status, 400);
      const tooLong = await admin.post('/api/v1/hooks', {
        url: receiver.url,
        event: 'before.token',
        timeout_ms: 20_000,
      });
      assert.equal(tooLong.status, 400);
      assert.match(tooLong.body.error_description, /timeout_ms/);
      const remote = await admin.post('/api/v1/hooks', { url: 'http://example.com/h', event: 'before.token' });
      assert.equal(remote.status, 400);

      const made = await admin.post('/api/v1/hooks', { url: receiver.url, event: 'before.signup' });
      assert.equal(made.status, 201);
      assert.match(made.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(made.body.timeout_ms, 2000);
      assert.equal(made.body.failure_policy, 'closed');
      assert.equal(made.body.enabled, true);
      const id = made.body.id as string;
      const read = await admin.get(`/api/v1/hooks/${id}`);
      assert.equal(read.body.secret, undefined, 'the secret is shown only once');
      const stored = await ward.registry.storage.hooks.find(id);
      assert.ok(stored && !stored.secret_sealed.includes(made.body.secret.slice(6)), 'sealed at rest');
      const patched = await admin.patch(`/api/v1/hooks/${id}`, { failure_policy: 'open', timeout_ms: 500 });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.failure_policy, 'open');
      assert.equal(patched.body.timeout_ms, 500);
      assert.equal((await admin.patch(`/api/v1/hooks/${id}`, { failure_policy: 'maybe' })).status, 400);
      const audit = await ward.registry.storage.audit.list({ target: `hook:${id}`, limit: 10 });
      assert.deepEqual(audit.map((a) => a.action).sort(), ['hook.created', 'hook.updated']);
      assert.ok(!audit.some((a) => a.details.includes(made.body.secret.slice(6))), 'no secret in the audit');
      assert.equal((await admin.del(`/api/v1/hooks/${id}`)).status, 204);
      assert.equal((await admin.get(`/api/v1/hooks/${id}`)).status, 404);
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.ok(doc.paths['/api/v1/hooks'] && doc.paths['/api/v1/hooks/{hookId}/calls'], 'in the OpenAPI document');
    });

    it('a denied before.signup creates nothing; its message reaches the SDK and the hosted page', async () => {
      const { id, secret } = await hook('before.signup');
      receiver.answer = answerJson({
        decision: 'deny',
        message_key: 'acme.signup.domain_closed',
        message: 'Sign-ups from this domain are closed',
      });
      const address = email();
      const res = await sdkSignup({
        email: address,
        password: PASSWORD,
        given_name: 'Ada',
        custom_fields: { newsletter: true },
      });
      assert.equal(res.status, 403);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.error, 'access_denied');
      assert.equal(body.error_message_key, 'acme.signup.domain_closed');
      assert.equal(body.error_user_msg, 'Sign-ups from this domain are closed');
      assert.equal(await ward.registry.storage.users.findByEmail(address), undefined, 'no user');

      const call = received(secret);
      assert.equal(call.type, 'before.signup');
      assert.equal(call.data.method, 'password');
      assert.equal(call.data.user.email, address);
      assert.equal(call.data.user.given_name, 'Ada');
      assert.deepEqual(call.data.user.custom_fields, { newsletter: true });
      assert.ok(!receiver.received[0]!.body.includes(PASSWORD), 'never the password');

      // The hosted signup page: the same refusal, shown on the page, and still no user.
      const browser = new Browser(ward);
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          state: 'st',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGKSsw7cM0',
          code_challenge_method: 'S256',
        }),
      );
      const href = /href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(await login.text())?.[1];
      assert.ok(href);
      const html = await (await browser.get(href.replace(/&amp;/g, '&'))).text();
      const other = email();
      const page = await browser.postForm('/oauth/authorize/signup', {
        interaction: hidden(html, 'interaction'),
        csrf: hidden(html, 'csrf'),
        email: other,
        password: PASSWORD,
      });
      assert.equal(page.status, 403);
      assert.match(await page.text(), /Sign-ups from this domain are closed/);
      assert.equal(await ward.registry.storage.users.findByEmail(other), undefined, 'no user');
      assert.equal(received(secret, 1).data.user.email, other);

      const recorded = await calls(id);
      assert.deepEqual(
        recorded.map((c) => [c.outcome, c.status, c.event]),
        [
          ['denied', 200, 'before.signup'],
          ['denied', 200, 'before.signup'],
        ],
      );
      assert.equal(recorded[1]!.id, call.id, 'recorded under the id it was signed with');
    });

    it('an allowing before.signup sets a custom field (even one only administrators write)', async () => {
      const { id, secret } = await hook('before.signup', { failure_policy: 'closed' });
      receiver.answer = answerJson({ decision: 'allow', custom_fields: { crm_id: 'CRM-42' } });
      const address = email();
      const res = await sdkSignup({ email: address, password: PASSWORD, custom_fields: { newsletter: false } });
      assert.equal(res.status, 200, await res.clone().text());
      const user = await ward.registry.storage.users.findByEmail(address);
      assert.ok(user);
      const profile = await ward.registry.storage.profiles.find(user.id);
      assert.deepEqual(profile?.custom_fields, { newsletter: false, crm_id: 'CRM-42' });
      assert.equal(received(secret).data.user.email, address);
      assert.equal((await calls(id))[0]!.outcome, 'allowed');

      // A field the account does not declare is a malformed answer: the closed policy refuses.
      receiver.answer = answerJson({ decision: 'allow', custom_fields: { shoe_size: 38 } });
      const refused = email();
      const no = await sdkSignup({ email: refused, password: PASSWORD });
      assert.equal(no.status, 403);
      assert.equal(((await no.json()) as Record<string, unknown>).error_message_key, 'error.hook.unavailable');
      assert.equal(await ward.registry.storage.users.findByEmail(refused), undefined);
      const [last] = await calls(id);
      assert.equal(last!.outcome, 'failed_closed');
      assert.match(last!.error, /malformed answer: .*shoe_size/);
    });

    it('a before.token hook adds a claim to the ID token', async () => {
      const { id, secret } = await hook('before.token');
      receiver.answer = answerJson({ decision: 'allow', claims: { crm_tier: 'gold', crm: { id: 7 } } });
      const { code, verifier, user } = await codeFor(ward);
      const { res, body } = await redeem(ward, code, verifier);
      assert.equal(res.status, 200);
      const claims = decodeJwt(body.id_token as string);
      assert.equal(claims.crm_tier, 'gold');
      assert.deepEqual(claims.crm, { id: 7 });
      assert.equal(claims.sub, user.id);
      const call = received(secret);
      assert.equal(call.type, 'before.token');
      assert.equal(call.data.client_id, 'spa');
      assert.equal(call.data.user.id, user.id);
      assert.equal(call.data.user.email, user.email);
      assert.deepEqual(call.data.tokens, ['access_token', 'id_token']);
      assert.ok(call.data.scopes.includes('openid'));
      assert.equal((await calls(id))[0]!.outcome, 'allowed');
    });

    it('a before.token hook adds its claims to a JWT access token (RFC 9068) too, never over its own', async () => {
      const orders = 'https://api.example.com/hooked-orders';
      const made = await admin.post('/api/v1/resources', {
        identifier: orders,
        name: 'Orders',
        scopes: ['orders:read'],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      await hook('before.token');
      receiver.answer = answerJson({ decision: 'allow', claims: { crm_tier: 'gold' } });
      const flow = await codeFor(ward, { scope: 'openid orders:read', extra: { resource: orders } });
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: 'https://app.example/cb',
        code_verifier: flow.verifier,
        resource: orders,
      });
      const body = (await res.json()) as Record<string, string>;
      assert.equal(res.status, 200, JSON.stringify(body));
      const at = decodeJwt(body.access_token!);
      assert.equal(at.crm_tier, 'gold', 'the hook claim in the access token');
      assert.equal(at.aud, orders);
      assert.equal(at.sub, flow.user.id);
      assert.equal(at.client_id, 'spa');
      assert.equal(decodeJwt(body.id_token!).crm_tier, 'gold', 'and in the ID token');
      // gid (the grant of a JWT access token) is Ward's: a hook naming it is malformed, nothing kept.
      receiver.answer = answerJson({ decision: 'allow', claims: { gid: 'forged', crm_tier: 'silver' } });
      const again = await codeFor(ward, { scope: 'openid orders:read', extra: { resource: orders } });
      const refused = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code: again.code,
        client_id: 'spa',
        redirect_uri: 'https://app.example/cb',
        code_verifier: again.verifier,
        resource: orders,
      });
      assert.equal(refused.status, 403, 'closed policy: a malformed answer refuses the token');
    });

    it('a claim that collides with a registered one is refused: closed refuses the token, open drops it', async () => {
      const { id } = await hook('before.token', { failure_policy: 'closed' });
      receiver.answer = answerJson({ decision: 'allow', claims: { sub: 'someone-else', crm_tier: 'gold' } });
      const first = await codeFor(ward);
      const refused = await redeem(ward, first.code, first.verifier);
      assert.equal(refused.res.status, 403);
      assert.equal(refused.body.error, 'access_denied');
      assert.equal(refused.body.error_message_key, 'error.hook.unavailable');
      assert.equal(refused.body.access_token, undefined);
      const [call] = await calls(id);
      assert.equal(call!.outcome, 'failed_closed');
      assert.match(call!.error, /claim "sub" is a registered claim/);

      assert.equal((await admin.patch(`/api/v1/hooks/${id}`, { failure_policy: 'open' })).status, 200);
      const second = await codeFor(ward);
      const issued = await redeem(ward, second.code, second.verifier);
      assert.equal(issued.res.status, 200);
      const claims = decodeJwt(issued.body.id_token as string);
      assert.equal(claims.sub, second.user.id, 'the registered claim is never replaced');
      assert.equal(claims.crm_tier, undefined, 'nothing of a refused answer is kept');
      assert.equal((await calls(id))[0]!.outcome, 'failed_open');
    });

    it('a denied before.login refuses the SDK login, the hosted login page and the password grant', async () => {
      const user = await signup(ward);
      const { id, secret } = await hook('before.login');
      receiver.answer = answerJson({
        decision: 'deny',
        message_key: 'acme.login.suspended',
        message: 'Your access is suspended',
      });

      const sdk = await ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid email', email: user.email, password: user.password }),
      });
      assert.equal(sdk.status, 403);
      const body = (await sdk.json()) as Record<string, unknown>;
      assert.equal(body.error_message_key, 'acme.login.suspended');
      assert.equal(body.error_user_msg, 'Your access is suspended');
      assert.equal(body.tkn, undefined);
      const call = received(secret);
      assert.equal(call.type, 'before.login');
      assert.equal(call.data.method, 'password');
      assert.equal(call.data.client_id, 'spa');
      assert.equal(call.data.user.id, user.id);
      assert.deepEqual(call.data.amr, ['pwd']);
      assert.ok(!receiver.received[0]!.body.includes(user.password), 'never the password');

      const browser = new Browser(ward);
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          state: 'st',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGKSsw7cM0',
          code_challenge_method: 'S256',
        }),
      );
      const page = await submitLoginPage(browser, await login.text(), user.email, user.password);
      assert.equal(page.status, 403);
      assert.equal(page.headers.get('location'), null, 'no code');
      assert.match(await page.text(), /Your access is suspended/);

      const grant = await tokenRequest(ward, {
        grant_type: 'password',
        client_id: 'backend',
        client_secret: CONFIDENTIAL_SECRET,
        username: user.email,
        password: user.password,
        scope: 'openid',
      });
      assert.equal(grant.status, 403);
      assert.equal(((await grant.json()) as Record<string, unknown>).error_message_key, 'acme.login.suspended');
      assert.deepEqual(
        (await calls(id)).map((c) => [c.outcome, c.event]),
        [
          ['denied', 'before.login'],
          ['denied', 'before.login'],
          ['denied', 'before.login'],
        ],
      );

      receiver.answer = answerJson({ decision: 'allow' });
      assert.ok(await passwordLogin(ward, user.email, user.password), 'an allowing hook lets the login through');
    });

    it('a hook that times out follows its policy: closed refuses the signup, open lets it through', async () => {
      const { id } = await hook('before.signup', { timeout_ms: 200, failure_policy: 'closed' });
      receiver.answer = (res) => {
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"decision":"deny"}');
        }, 1500);
      };
      const closed = email();
      const started = Date.now();
      const no = await sdkSignup({ email: closed, password: PASSWORD });
      assert.ok(Date.now() - started < 1400, 'Ward did not wait past the timeout');
      assert.equal(no.status, 403);
      const body = (await no.json()) as Record<string, unknown>;
      assert.equal(body.error_message_key, 'error.hook.unavailable');
      assert.equal(await ward.registry.storage.users.findByEmail(closed), undefined);

      assert.equal((await admin.patch(`/api/v1/hooks/${id}`, { failure_policy: 'open' })).status, 200);
      const open = email();
      const yes = await sdkSignup({ email: open, password: PASSWORD });
      assert.equal(yes.status, 200, await yes.clone().text());
      assert.ok(await ward.registry.storage.users.findByEmail(open));

      const recorded = await calls(id);
      assert.deepEqual(
        recorded.map((c) => [c.outcome, c.status]),
        [
          ['failed_open', null],
          ['failed_closed', null],
        ],
      );
      assert.ok(
        recorded.every((c) => /timeout|abort/i.test(c.error)),
        JSON.stringify(recorded),
      );
    });

    it('a hook enabled by another process applies at once (the hooks change counter), not after a cache life', async () => {
      const { id } = await hook('before.signup', { enabled: false });
      receiver.answer = answerJson({ decision: 'deny', message: 'closed' });
      assert.equal((await sdkSignup({ email: email(), password: PASSWORD })).status, 200, 'no hook yet');
      // As another process or the CLI would: the row changed in a transaction of its own, which bumps
      // the `hooks` counter; this process's API did not see it. The clock does not move.
      await ward.registry.storage.transaction((tx) => updateHook(tx, id, ward.clock.now(), { enabled: true }, true));
      let status = 200;
      for (let i = 0; i < 40 && status === 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await sdkSignup({ email: email(), password: PASSWORD })).status;
      }
      assert.equal(status, 403, 'refused by the hook within 2 s');
    });
  });
}
