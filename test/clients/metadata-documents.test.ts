// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25), on both
// engines, over real HTTP: a document served on loopback (allowed to the tests' outbound client as
// WARD_OUTBOUND_ALLOW allows it; http is accepted only there) names a third-party public client that
// signs a user in through the consent page and redeems its code; its Cache-Control keeps it from being
// fetched again; a document whose client_id is not its URL, one with a secret, a redirect_uri it does
// not list and a URL that cannot be a client_id are refused; off by default.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { documentUrlProblem } from '../../src/clients/metadata-documents.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CB = 'https://agent.example/callback';
const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** Documents by path, with the Cache-Control each is served with; counts the fetches. */
function documentServer() {
  const docs = new Map<string, { body: (url: string) => unknown; cacheControl?: string }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const doc = docs.get(req.url!);
    if (!doc) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(doc.cacheControl ? { 'cache-control': doc.cacheControl } : {}),
    });
    res.end(JSON.stringify(doc.body(`${base}${req.url}`)));
  });
  let base = '';
  return {
    docs,
    hits,
    server,
    async start() {
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
  };
}

for (const engine of engines()) {
  describe(`client ID metadata documents on ${engine}`, () => {
    let ward: TestWard;
    const site = documentServer();
    let base = '';
    before(async () => {
      base = await site.start();
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
      site.docs.set('/agent.json', {
        cacheControl: 'public, max-age=600',
        body: (url) => ({
          client_id: url,
          client_name: 'Desktop Agent',
          redirect_uris: [CB],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        }),
      });
      site.docs.set('/mismatch.json', { body: () => ({ client_id: `${base}/agent.json`, redirect_uris: [CB] }) });
      site.docs.set('/secret.json', {
        body: (url) => ({ client_id: url, redirect_uris: [CB], client_secret: 'x'.repeat(40) }),
      });
      site.docs.set('/basic.json', {
        body: (url) => ({ client_id: url, redirect_uris: [CB], token_endpoint_auth_method: 'client_secret_basic' }),
      });
    });
    after(async () => {
      await ward.close();
      site.server.close();
    });
    const setDocuments = (on: boolean) =>
      ward.setAccount({
        client_registration: { ...ward.registry.account().client_registration, metadata_documents: on },
      });
    const request = (clientId: string, redirectUri = CB) => {
      const pkce = pkcePair();
      const url = authorizeUrl({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid profile',
        state: 'st-4',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      });
      return { url, verifier: pkce.verifier };
    };
    const refusedPage = async (clientId: string, redirectUri = CB) => {
      const res = await new Browser(ward).get(request(clientId, redirectUri).url);
      assert.equal(res.status, 400, `${clientId}: an error page, not a redirect`);
      assert.equal(res.headers.get('location'), null);
    };

    it('is off by default: the URL is an unknown client, nothing is fetched', async () => {
      const meta = (await (await ward.fetch('/.well-known/oauth-authorization-server')).json()) as Record<
        string,
        unknown
      >;
      assert.equal(meta.client_id_metadata_document_supported, undefined);
      await refusedPage(`${base}/agent.json`);
      assert.equal(site.hits.get('/agent.json') ?? 0, 0);
    });

    it('on: the document is a third-party public client; the code flow runs; fetched once while cached', async () => {
      setDocuments(true);
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const meta = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
        assert.equal(meta.client_id_metadata_document_supported, true, path);
      }
      const clientId = `${base}/agent.json`;
      const user = await signup(ward);
      const browser = new Browser(ward);
      const req = request(clientId);
      const login = await browser.get(req.url);
      assert.equal(login.status, 200);
      const consent = await submitLoginPage(browser, await login.text(), user.email, user.password);
      assert.equal(consent.status, 200, 'third-party: the consent page');
      const html = await consent.text();
      assert.match(html, /Desktop Agent asks for access to your account/);
      const allowed = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(html, 'interaction')!,
        csrf: field(html, 'csrf')!,
        decision: 'allow',
      });
      assert.equal(allowed.status, 303);
      const code = new URL(allowed.headers.get('location')!).searchParams.get('code');
      assert.ok(code);
      const { res, body } = await redeem(ward, code, req.verifier, clientId, CB);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.ok(body.access_token);
      assert.equal(site.hits.get('/agent.json'), 1, 'max-age=600: fetched once for the whole flow');
      assert.deepEqual((await ward.registry.storage.consents.find(user.id, clientId))?.scopes, ['openid', 'profile']);
      // A secret is refused for a document's client, like any public client's.
      const withSecret = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x',
          client_id: clientId,
          client_secret: 'y',
        }).toString(),
      });
      assert.equal(withSecret.status, 401);
    });

    it('refuses a document whose client_id is not its URL, one with a secret, an unlisted redirect_uri', async () => {
      setDocuments(true);
      await refusedPage(`${base}/mismatch.json`);
      await refusedPage(`${base}/secret.json`);
      await refusedPage(`${base}/basic.json`);
      await refusedPage(`${base}/missing.json`);
      await refusedPage(`${base}/agent.json`, 'https://elsewhere.example/cb');
      assert.equal(site.hits.get('/mismatch.json'), 1, 'fetched, then refused');
      assert.ok(ward.logs.some((l) => l.includes('its client_id is not its URL')));
    });

    it('takes as client_id only a normal https URL with a path (http only on an allowed loopback)', () => {
      assert.equal(documentUrlProblem('https://agent.example/client.json', false), null);
      assert.equal(documentUrlProblem('http://127.0.0.1:8080/c.json', true), null);
      assert.equal(documentUrlProblem('http://127.0.0.1:8080/c.json', false), 'not https');
      assert.equal(documentUrlProblem('http://agent.example/c.json', true), 'not https');
      assert.equal(documentUrlProblem('https://agent.example/', false), 'has no path');
      assert.equal(documentUrlProblem('https://agent.example/c.json#x', false), 'has a fragment');
      assert.equal(documentUrlProblem('https://u:p@agent.example/c.json', false), 'has credentials');
      assert.match(documentUrlProblem('https://agent.example/a/../c.json', false)!, /normal form/);
      assert.match(documentUrlProblem(`https://agent.example/${'a'.repeat(120)}`, false)!, /longer than 128/);
    });
  });
}
