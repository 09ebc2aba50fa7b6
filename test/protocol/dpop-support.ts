// The DPoP tests' shared Ward and calls (dpop.test.ts: openid-client; dpop-refusals.test.ts: hand-made proofs).
import assert from 'node:assert/strict';
import { makeProof, type ProofKey } from '../helpers/dpop.js';
import { CONFIDENTIAL_CLIENT, PUBLIC_CLIENT, codeFor, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_LIMITS, OFFLINE, basic } from './token/support.js';

export const CB = 'https://app.example/cb';
export const API_CB = 'https://api.example/cb';
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
export const ORDERS = 'https://api.example.com/orders';
export const OPS_SECRET = 'resource-manager-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients'],
};

/** A Ward with the public and confidential clients, a resource server and a management client. */
export function startDpopWard(engine: 'sqlite' | 'postgres'): Promise<TestWard> {
  return startWard({
    engine,
    account: NO_LIMITS,
    clients: [
      PUBLIC_CLIENT,
      { ...CONFIDENTIAL_CLIENT, pkce_enforced: true },
      { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET },
      OPS,
    ],
  });
}

/** The test Ward's clock stands still; proofs (openid-client's too) carry the real time. Nonces off. */
export function atRealTime(ward: TestWard): void {
  ward.clock.advance(Math.max(0, Date.now() - ward.clock.now()));
  ward.setAccount({ dpop_nonce_required: false });
}

/** The calls of the DPoP tests against the Ward `w()` gives. */
export function dpopCalls(w: () => TestWard) {
  const tokenUrl = () => `${w().issuer}/oauth/token`;
  const dpopHeaders = (proof: string) => ({ dpop: proof });
  /** A code flow of the public client redeemed with a proof by `key` (offline_access: a refresh token too). */
  async function boundTokens(key: ProofKey, scope = OFFLINE, extra: Record<string, string> = {}) {
    const flow = await codeFor(w(), { scope, extra });
    const proof = await makeProof(key, { htm: 'POST', htu: tokenUrl() });
    const form = {
      grant_type: 'authorization_code',
      code: flow.code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: flow.verifier,
      ...(extra.resource ? { resource: extra.resource } : {}),
    };
    const res = await tokenRequest(w(), form, dpopHeaders(proof));
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return { ...flow, tokens: JSON.parse(text) as Record<string, string> };
  }
  /** A code flow redeemed without a proof: Bearer tokens. */
  async function boundTokensWithout() {
    const flow = await codeFor(w());
    const form = {
      grant_type: 'authorization_code',
      code: flow.code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: flow.verifier,
    };
    const res = await tokenRequest(w(), form);
    const tokens = (await res.json()) as Record<string, string>;
    assert.equal(tokens.token_type, 'Bearer');
    return { tokens };
  }
  const userinfo = (scheme: string, token: string, proof?: string) =>
    w().fetch('/identity/v1/userinfo', {
      headers: { authorization: `${scheme} ${token}`, ...(proof ? { dpop: proof } : {}) },
    });
  const introspect = async (token: string) => {
    const res = await w().fetch('/oauth/introspect', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('orders-api', API_SECRET),
      },
      body: new URLSearchParams({ token }).toString(),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, unknown>;
  };
  const refreshWith = async (refreshToken: string, proof?: string) =>
    tokenRequest(
      w(),
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'spa' },
      proof ? dpopHeaders(proof) : {},
    );
  return { dpopHeaders, boundTokens, boundTokensWithout, userinfo, introspect, refreshWith, tokenUrl };
}
