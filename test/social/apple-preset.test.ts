// The `apple` preset end to end against a local Sign in with Apple (test/helpers/apple-sim.ts): Ward
// asks for `response_mode=form_post`; the provider's page posts the answer cross-site (sent here as a
// browser would: without the SameSite=Lax cookies), Ward parks it and comes back by a same-site GET
// that carries the cookie binding the state to the browser; the client secret is an ES256 JWT minted
// from the team key, kept, and renewed before it expires; `email_verified` arrives as a string; the
// name Apple posts only at the first sign-in is kept. An answer posted into another browser, a forged
// state and a replayed handle are refused. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { validateSocialProviders } from '../../src/config/social.js';
import { Problems } from '../../src/config/validate.js';
import { APPLE_SECRET_LIFETIME } from '../../src/social/apple-secret.js';
import { type AppleAccount, type AppleSim, postedForm, startAppleSim } from '../helpers/apple-sim.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

let n = 0;
const account = (email_verified: 'true' | 'false' = 'true'): AppleAccount => {
  n += 1;
  return {
    sub: `00${n}123.${Math.random().toString(16).slice(2)}.0042`,
    email: `relay${n}@privaterelay.appleid.com`,
    email_verified,
    is_private_email: 'true',
    firstName: `Anna${n}`,
    lastName: 'Apfel',
  };
};

for (const engine of engines()) {
  describe(`the apple preset against a local Sign in with Apple (${engine})`, () => {
    let apple: AppleSim;
    let ward: TestWard;
    before(async () => {
      apple = await startAppleSim();
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
        socialProviders: [
          {
            preset: 'apple',
            issuer: apple.issuer,
            client_id: apple.clientId,
            client_secret: apple.teamKeyPem,
            team_id: apple.teamId,
            key_id: apple.keyId,
          },
        ],
      });
      apple.now = () => ward.clock.now();
    });
    after(async () => {
      await ward?.close();
      await apple?.close();
    });

    /** Up to the provider's posting page: the browser, the PKCE pair, the form it posts. */
    async function toApple(browser = new Browser(ward)) {
      const pkce = pkcePair();
      const start = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email profile',
          state: 'apl',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          provider: 'apple',
        }),
      );
      assert.equal(start.status, 302, await start.text());
      const upstream = location(start);
      const page = await browser.get(upstream.toString());
      assert.equal(page.status, 200, await page.clone().text());
      return { browser, pkce, upstream, form: postedForm(await page.text()) };
    }

    /** The provider's page posts (cross-site: no Lax cookie); Ward's 303 is followed as a top-level GET. */
    async function post(browser: Browser, form: { action: string; fields: Record<string, string> }) {
      const posted = await browser.postForm(form.action, form.fields, {}, 'none');
      if (posted.status !== 303) return { posted, res: posted };
      return { posted, res: await browser.get(location(posted).toString(), {}, 'lax') };
    }

    async function signIn() {
      const { browser, pkce, upstream, form } = await toApple();
      const { posted, res } = await post(browser, form);
      assert.equal(posted.status, 303, await posted.text());
      assert.equal(location(posted).searchParams.get('code'), null, 'the code is never in a URL');
      assert.equal(res.status, 302, await res.text());
      const answer = location(res);
      assert.equal(answer.searchParams.get('error'), null, answer.searchParams.get('error_description') ?? '');
      const { body } = await redeem(ward, answer.searchParams.get('code')!, pkce.verifier);
      return { upstream, form, claims: decodeJwt(body.id_token!) };
    }

    it('asks for form_post, takes the posted answer and the first sign-in name, keeps it after', async () => {
      apple.account = account();
      const first = await signIn();
      assert.equal(first.upstream.searchParams.get('response_mode'), 'form_post');
      assert.equal(first.upstream.searchParams.get('scope'), 'openid email name');
      assert.equal(first.form.action, `${ward.url}/identity/v1/oauth/callback/apple`);
      assert.ok(first.form.fields.user, 'Apple posts the user at the first sign-in');
      assert.deepEqual(first.claims.amr, ['social', 'apple']);
      assert.equal(first.claims.given_name, apple.account.firstName);
      assert.equal(first.claims.family_name, 'Apfel');
      assert.equal(first.claims.email, apple.account.email, 'email_verified "true" (a string) is verified');

      const second = await signIn();
      assert.equal(second.form.fields.user, undefined, 'never again');
      assert.equal(second.claims.sub, first.claims.sub);
      assert.equal(second.claims.given_name, apple.account.firstName, 'the first name is kept');
      assert.equal(second.claims.family_name, 'Apfel');
    });

    it('does not take an email whose email_verified is "false"', async () => {
      apple.account = account('false');
      const { claims } = await signIn();
      assert.equal(claims.email, undefined);
      assert.equal(claims.given_name, apple.account.firstName);
    });

    it('refuses an answer posted into another browser, a forged state and a replayed handle', async () => {
      apple.account = account();
      const victim = new Browser(ward);
      const attacker = await toApple();
      const intoVictim = await post(victim, attacker.form);
      assert.equal(intoVictim.posted.status, 303, 'parked: the state is live');
      assert.equal(intoVictim.res.status, 400, 'but the browser is not the one that started (login CSRF)');

      const mine = await toApple();
      const forged = await post(mine.browser, { ...mine.form, fields: { ...mine.form.fields, state: 'forged' } });
      assert.equal(forged.posted.status, 400, 'nothing parked for a state Ward did not issue');

      const odd = [
        await mine.browser.request(mine.form.action, { method: 'POST' }, 'none'),
        await mine.browser.request(
          mine.form.action,
          { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'state=a&state=b' },
          'none',
        ),
        await mine.browser.postJson(mine.form.action, { state: ['x'], code: 1 }),
        await mine.browser.postForm(`${ward.url}/identity/v1/oauth/callback/nope`, mine.form.fields, {}, 'none'),
      ];
      assert.deepEqual(
        odd.map((r) => r.status),
        [400, 400, 400, 400],
        'no body, a repeated state, JSON, an unknown provider',
      );

      const posted = await mine.browser.postForm(mine.form.action, mine.form.fields, {}, 'none');
      assert.equal(posted.status, 303);
      assert.equal((await mine.browser.get(location(posted).toString(), {}, 'lax')).status, 302);
      assert.equal((await mine.browser.get(location(posted).toString(), {}, 'lax')).status, 400, 'once');
    });

    it('mints the client secret from the team key, reuses it, and renews it before it expires', async () => {
      apple.account = account();
      const before = apple.secrets.length;
      await signIn();
      await signIn();
      const [a, b] = apple.secrets.slice(before);
      assert.equal(a, b, 'kept between token requests');
      assert.equal(decodeProtectedHeader(a!).kid, apple.keyId);
      assert.equal(decodeProtectedHeader(a!).alg, 'ES256');
      const c = decodeJwt(a!);
      assert.equal(c.iss, apple.teamId);
      assert.equal(c.sub, apple.clientId);
      assert.equal(c.aud, apple.issuer);
      assert.equal(c.exp! - c.iat!, APPLE_SECRET_LIFETIME);

      ward.clock.advance((APPLE_SECRET_LIFETIME - 3600) * 1000); // an hour before it expires
      await signIn();
      const renewed = apple.secrets.at(-1)!;
      assert.notEqual(renewed, a, 'a new one');
      assert.ok(decodeJwt(renewed).exp! > c.exp!);
    });
  });
}

describe('the apple preset in the configuration', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const check = (entry: Record<string, unknown>) => {
    const p = new Problems();
    const out = validateSocialProviders(p, [entry]);
    return { problems: p.list.join('\n'), out: out[0] };
  };

  it('needs the team id, the key id and the team key (a P-256 PKCS#8 PEM); real endpoints by default', () => {
    const ok = check({
      preset: 'apple',
      client_id: 'com.example.web',
      client_secret: pem,
      team_id: 'ABCDE12345',
      key_id: 'XYZ987',
    });
    assert.equal(ok.problems, '');
    assert.equal(ok.out?.issuer, 'https://appleid.apple.com');
    assert.equal(ok.out?.response_mode, 'form_post');
    assert.match(check({ preset: 'apple', client_id: 'c', client_secret: pem }).problems, /team_id.*required/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    assert.match(
      check({ preset: 'apple', client_id: 'c', client_secret: String(rsa), team_id: 'T', key_id: 'K' }).problems,
      /client_secret.*team key/,
    );
    assert.match(
      check({ preset: 'apple', client_id: 'c', client_secret: 'a secret', team_id: 'T', key_id: 'K' }).problems,
      /client_secret.*team key/,
    );
  });
});
