// PKCE, black box: PK-01..PK-04 (the authorize request: S256 challenge required for public
// clients, plain / missing method / malformed challenge refused), PK-05 and PK-06 (downgrades at
// the token endpoint), PK-07 (a failed check burns the code), PK-08 (verifier grammar, checked
// even when its S256 matches), PK-09 (constant-time comparison: runtime spy and a source rule),
// PK-10 (discovery), PK-11 (constant challenge logged; verifier = state refused).
import assert from 'node:assert/strict';
import crypto, { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { pkceMatches } from '../../../src/protocol/token/pkce.js';
import { Browser } from '../../helpers/browser.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  passwordLogin,
  pkcePair,
  signup,
  tokenRequest,
} from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { basic, expectError, expectTokens, redeemRaw, NO_LIMITS } from './support.js';

const CB = 'https://app.example/cb';
const API_CB = 'https://api.example/cb';
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

describe('PKCE', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ account: NO_LIMITS, clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
  });
  after(() => ward.close());

  /** Signs a user in and runs authorize with the given PKCE parameters; returns the redirect. */
  async function authorize(
    pkce: Record<string, string | undefined>,
    clientId = 'spa',
    redirectUri = CB,
    state = 'st-pk',
  ) {
    const user = await signup(ward, clientId);
    const tkn = await passwordLogin(ward, user.email, user.password, clientId);
    const res = await new Browser(ward).get(
      authorizeUrl({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        state,
        tkn,
        ...pkce,
      }),
    );
    assert.equal(res.status, 302, await res.text());
    return location(res);
  }
  const codeOf = (loc: URL) => {
    const code = loc.searchParams.get('code');
    assert.ok(code, `no code: ${loc.toString()}`);
    return code;
  };
  function assertRefused(loc: URL, state = 'st-pk') {
    assert.equal(loc.origin + loc.pathname, CB);
    assert.equal(loc.searchParams.get('error'), 'invalid_request');
    assert.equal(loc.searchParams.get('state'), state);
    assert.equal(loc.searchParams.get('code'), null);
  }

  describe('at the authorization endpoint', () => {
    it('PK-01: a public client without code_challenge gets invalid_request', async () => {
      assertRefused(await authorize({}));
      assertRefused(await authorize({ code_challenge: '', code_challenge_method: 'S256' }));
    });

    it('PK-02: code_challenge_method=plain is refused, in any spelling', async () => {
      const { verifier } = pkcePair();
      for (const method of ['plain', 'PLAIN', 's256', 'S512'])
        assertRefused(await authorize({ code_challenge: verifier.slice(0, 43), code_challenge_method: method }));
    });

    it('PK-03: a challenge without code_challenge_method is refused, not read as plain or S256', async () => {
      assertRefused(await authorize({ code_challenge: pkcePair().challenge }));
    });

    it('PK-04: a malformed challenge is refused', async () => {
      const good = pkcePair().challenge;
      for (const bad of [
        good.slice(0, 42),
        `${good}A`,
        `${good.slice(0, 42)}=`,
        `${good.slice(0, 41)}+/`,
        `${good.slice(0, 42)} `,
        'A'.repeat(128),
      ]) {
        assertRefused(await authorize({ code_challenge: bad, code_challenge_method: 'S256' }));
      }
    });
  });

  describe('at the token endpoint', () => {
    it('PK-05: a code issued without a challenge refuses any code_verifier (downgrade A)', async () => {
      const code = codeOf(await authorize({}, 'backend', API_CB));
      const res = await tokenRequest(
        ward,
        { grant_type: 'authorization_code', code, redirect_uri: API_CB, code_verifier: pkcePair().verifier },
        { authorization: basic('backend', CONFIDENTIAL_SECRET) },
      );
      await expectError(res, 400, 'invalid_grant');
      await expectError(
        await tokenRequest(
          ward,
          { grant_type: 'authorization_code', code, redirect_uri: API_CB },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
        400,
        'invalid_grant',
      );
    });

    it('PK-06: a code issued with a challenge needs its verifier (downgrade B), public and confidential', async () => {
      for (const omit of [undefined, '']) {
        const { code } = await codeFor(ward);
        const form: Record<string, string> = {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CB,
          client_id: 'spa',
        };
        if (omit !== undefined) form.code_verifier = omit;
        await expectError(await tokenRequest(ward, form), 400, 'invalid_grant');
      }
      const nul = await codeFor(ward);
      const res = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code: nul.code,
          redirect_uri: CB,
          client_id: 'spa',
          code_verifier: null,
        }),
      });
      await expectError(res, 400, 'invalid_grant');
      const pair = pkcePair();
      const code = codeOf(
        await authorize({ code_challenge: pair.challenge, code_challenge_method: 'S256' }, 'backend', API_CB),
      );
      await expectError(
        await tokenRequest(
          ward,
          { grant_type: 'authorization_code', code, redirect_uri: API_CB },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
        400,
        'invalid_grant',
      );
      const ok = codeOf(
        await authorize({ code_challenge: pair.challenge, code_challenge_method: 'S256' }, 'backend', API_CB),
      );
      await expectTokens(
        await tokenRequest(
          ward,
          { grant_type: 'authorization_code', code: ok, redirect_uri: API_CB, code_verifier: pair.verifier },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
      );
    });

    it('PK-07: a wrong verifier burns the code: the right one fails afterwards', async () => {
      const { code, verifier } = await codeFor(ward);
      await expectError(await redeemRaw(ward, code, pkcePair().verifier), 400, 'invalid_grant');
      await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      assert.ok(
        ward.logs.some((l) => l.includes('"event":"pkce.failed"')),
        'the failure is logged',
      );
    });

    it('PK-08: a verifier outside the RFC 7636 grammar fails even when its S256 matches', async () => {
      const bad = [
        'a',
        'b'.repeat(42),
        'c'.repeat(129),
        `${'d'.repeat(42)}+`,
        `${'e'.repeat(42)}/`,
        `${'f'.repeat(42)}=`,
        `${'g'.repeat(21)} ${'g'.repeat(21)}`,
        `${'h'.repeat(42)}é`,
      ];
      for (const verifier of bad) {
        const code = codeOf(await authorize({ code_challenge: s256(verifier), code_challenge_method: 'S256' }));
        await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      }
      for (const verifier of ['A'.repeat(43), `${'-._~'.repeat(31)}abcd`]) {
        const code = codeOf(await authorize({ code_challenge: s256(verifier), code_challenge_method: 'S256' }));
        await expectTokens(await redeemRaw(ward, code, verifier));
      }
    });
  });

  describe('PK-09 constant-time comparison', () => {
    it('compares the S256 of the verifier with crypto.timingSafeEqual on equal-length buffers', () => {
      const real = crypto.timingSafeEqual;
      const calls: Array<[number, number]> = [];
      crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push([a.byteLength, b.byteLength]);
        return real(a, b);
      }) as typeof real;
      syncBuiltinESMExports();
      try {
        const { verifier, challenge } = pkcePair();
        assert.equal(pkceMatches(challenge, verifier), true);
        assert.equal(pkceMatches(challenge, pkcePair().verifier), false);
        assert.equal(pkceMatches(challenge, randomBytes(64).toString('base64url')), false);
      } finally {
        crypto.timingSafeEqual = real;
        syncBuiltinESMExports();
      }
      assert.equal(calls.length, 3);
      for (const [a, b] of calls) assert.equal(a, b);
    });

    it('source rule: no === or !== on the challenge or verifier in the token grants', () => {
      for (const f of ['pkce.ts', 'grant-authorization-code.ts']) {
        const src = readFileSync(new URL(`../../../src/protocol/token/${f}`, import.meta.url), 'utf8');
        const clean = (t: string) => t.replace(/^[(!]+|[);,]+$/g, '');
        for (const m of src.matchAll(/(\S+?)\s*[!=]==?\s*(\S+)/g)) {
          const [left, right] = [clean(m[1]!), clean(m[2]!)];
          const secret = /challenge|verifier|given|digest/i;
          const harmless = /^(null|undefined|''|'string'|'missing'|'reused'|'ok')$/;
          if ((secret.test(left) || secret.test(right)) && !harmless.test(left) && !harmless.test(right)) {
            assert.fail(`${f}: compare secrets with safeEqual, not ===: ${m[0]}`);
          }
        }
      }
    });
  });

  it('PK-10: discovery advertises S256 only', async () => {
    const d = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    assert.deepEqual(d.code_challenge_methods_supported, ['S256']);
  });

  describe('PK-11 defence in depth', () => {
    it('logs a security event when one client reuses a code_challenge, and not for fresh ones', async () => {
      const event = (l: string) => l.includes('"event":"pkce.challenge_reused"');
      const mark = ward.logs.length;
      const fresh = await codeFor(ward);
      await expectTokens(await redeemRaw(ward, fresh.code, fresh.verifier));
      assert.ok(!ward.logs.slice(mark).some(event), 'no event for a fresh challenge');
      const pair = pkcePair();
      for (let i = 0; i < 2; i++) {
        const code = codeOf(await authorize({ code_challenge: pair.challenge, code_challenge_method: 'S256' }));
        await expectTokens(await redeemRaw(ward, code, pair.verifier));
      }
      const line = ward.logs.slice(mark).find(event);
      assert.ok(line, 'the reused challenge is logged');
      assert.equal(JSON.parse(line).client_id, 'spa');
      assert.ok(!line.includes(pair.verifier));
    });

    it('refuses a code_verifier equal to the state of the same request', async () => {
      const verifier = randomBytes(32).toString('base64url');
      assertRefused(
        await authorize({ code_challenge: s256(verifier), code_challenge_method: 'S256' }, 'spa', CB, verifier),
        verifier,
      );
    });
  });
});
