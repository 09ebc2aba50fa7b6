// The `microsoft` preset end to end against a local Microsoft identity platform
// (test/helpers/microsoft-sim.ts: its discovery with the `{tenantid}` issuer template, its tenant paths,
// `tid` in id_tokens): the preset's multi-tenant `common` issuer signs in work and personal accounts;
// `organizations`, `consumers` and one tenant admit only theirs, by Ward's own check of the id_token's
// `tid` and `iss` even when the provider lets another through; an `iss` that is not the `tid`'s tenant
// is refused. Through Ward's /oauth/authorize and callback with a cookie-keeping HTTP client.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import {
  CONSUMERS_TENANT,
  type MicrosoftAccount,
  startMicrosoftSim,
  type MicrosoftSim,
} from '../helpers/microsoft-sim.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CONTOSO = randomUUID();

describe('the microsoft preset against a local Microsoft identity platform', () => {
  let ms: MicrosoftSim;
  let ward: TestWard;
  before(async () => {
    ms = await startMicrosoftSim();
    const preset = (name: string, tenant: string) => ({
      name,
      preset: 'microsoft',
      issuer: ms.issuerFor(tenant),
      client_id: ms.clientId,
      client_secret: ms.clientSecret,
    });
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
      socialProviders: [
        { preset: 'microsoft', issuer: ms.issuerFor('common'), client_id: ms.clientId, client_secret: ms.clientSecret },
        preset('ms-work', 'organizations'),
        preset('ms-personal', 'consumers'),
        preset('ms-contoso', CONTOSO),
      ],
    });
  });
  after(async () => {
    await ward?.close();
    await ms?.close();
  });

  let n = 0;
  const account = (tid: string): MicrosoftAccount => {
    n += 1;
    return {
      sub: `pairwise-subject-${n}-${randomUUID()}`,
      oid: randomUUID(),
      tid,
      name: `Person ${n}`,
      given_name: 'Person',
      family_name: `N${n}`,
      preferred_username: `person${n}@example.com`,
      email: `person${n}@example.com`,
    };
  };

  /** /oauth/authorize?provider=... through the simulator and back; Ward's answer at the end. */
  async function signIn(provider: string) {
    const browser = new Browser(ward);
    const pkce = pkcePair();
    const start = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid email profile',
        state: 'ms',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        provider,
      }),
    );
    assert.equal(start.status, 302, await start.text());
    const upstream = location(start);
    const back = await browser.get(upstream.toString());
    assert.equal(back.status, 302, await back.text());
    const callback = location(back);
    assert.equal(callback.pathname, `/identity/v1/oauth/callback/${provider}`);
    const res = await browser.get(callback.toString());
    assert.equal(res.status, 302, await res.text());
    const answer = location(res);
    assert.equal(`${answer.origin}${answer.pathname}`, 'https://app.example/cb');
    return { upstream, answer, pkce };
  }

  async function signedIn(provider: string) {
    const { upstream, answer, pkce } = await signIn(provider);
    assert.equal(answer.searchParams.get('error'), null, answer.searchParams.get('error_description') ?? '');
    const { body } = await redeem(ward, answer.searchParams.get('code')!, pkce.verifier);
    return { upstream, claims: decodeJwt(body.id_token!) };
  }

  async function refused(provider: string, because: RegExp) {
    const { answer } = await signIn(provider);
    assert.equal(answer.searchParams.get('error'), 'access_denied');
    assert.equal(answer.searchParams.get('code'), null);
    assert.match(answer.searchParams.get('error_description') ?? '', because);
  }

  it('signs in a work account through the preset (common: the {tenantid} template against tid)', async () => {
    ms.account = account(CONTOSO);
    const { upstream, claims } = await signedIn('microsoft');
    assert.equal(`${upstream.origin}${upstream.pathname}`, `${ms.base}/common/oauth2/v2.0/authorize`);
    assert.deepEqual(claims.amr, ['social', 'microsoft']);
    assert.equal(claims.given_name, 'Person', 'names from Graph userinfo, same subject');
    assert.equal(claims.email, undefined, 'Microsoft does not say the email is verified: not taken');
    const again = await signedIn('microsoft');
    assert.equal(again.claims.sub, claims.sub, 'the same user the next time');
  });

  it('signs in a personal account through common too', async () => {
    ms.account = account(CONSUMERS_TENANT);
    const { claims } = await signedIn('microsoft');
    assert.deepEqual(claims.amr, ['social', 'microsoft']);
  });

  it("refuses an id_token whose iss is another tenant than its tid (common's template)", async () => {
    ms.account = account(CONTOSO);
    ms.mode = 'iss_mismatch';
    try {
      await refused('microsoft', /not its tenant/);
    } finally {
      ms.mode = 'ok';
    }
  });

  it('organizations: a work account in, a personal account out even if the provider lets it through', async () => {
    ms.account = account(randomUUID());
    await signedIn('ms-work');
    ms.account = account(CONSUMERS_TENANT);
    await refused('ms-work', /provider answered access_denied/); // the provider's own refusal
    ms.mode = 'any_tenant';
    try {
      await refused('ms-work', /personal account/); // Ward's
    } finally {
      ms.mode = 'ok';
    }
  });

  it("consumers: discovery names the consumers tenant's issuer; a work account's token is refused", async () => {
    ms.account = account(CONSUMERS_TENANT);
    await signedIn('ms-personal');
    ms.account = account(CONTOSO);
    ms.mode = 'any_tenant';
    try {
      await refused('ms-personal', /another issuer/);
    } finally {
      ms.mode = 'ok';
    }
  });

  it("one tenant: its members in, another tenant's token refused", async () => {
    ms.account = account(CONTOSO);
    await signedIn('ms-contoso');
    ms.account = account(randomUUID());
    ms.mode = 'any_tenant';
    try {
      await refused('ms-contoso', /another issuer/);
    } finally {
      ms.mode = 'ok';
    }
  });
});
