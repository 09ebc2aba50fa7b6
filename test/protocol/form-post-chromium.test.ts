// response_mode=form_post in a real browser (headless Chromium): the page Ward answers submits itself
// under its own CSP (script hash, form-action to the redirect_uri's origin only), and the browser
// POSTs the code, state and iss to the client's callback, where the code redeems. The callback is a
// small HTTPS server on loopback that records what it receives.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { authorizeUrl, passwordLogin, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('response_mode=form_post in Chromium', { timeout: 90_000 }, () => {
  let ward: TestWard;
  let chromium: Chromium;
  let server: Server;
  let callback: string;
  const received: Array<{ method: string; path: string; body: string; contentType: string }> = [];
  before(async () => {
    const tls = await makeDevCertificate(['127.0.0.1']);
    server = createServer(tls, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/favicon.ico') return void res.writeHead(404).end();
        received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          body,
          contentType: req.headers['content-type'] ?? '',
        });
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Received</title>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    callback = `https://127.0.0.1:${(server.address() as { port: number }).port}/cb`;
    const client = { client_id: 'fp', type: 'public', jwt_algorithm: 'RS256', allowed_callback_urls: [callback] };
    ward = await startWard({ clients: [client] });
    chromium = await launchChromium();
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('posts the code to the callback, which redeems it', async () => {
    const user = await signup(ward, 'fp');
    const tkn = await passwordLogin(ward, user.email, user.password, 'fp');
    const pkce = pkcePair();
    const url = authorizeUrl({
      client_id: 'fp',
      response_type: 'code',
      response_mode: 'form_post',
      redirect_uri: callback,
      scope: 'openid',
      state: 's-"<fp>',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      tkn,
    });
    const page = await chromium.context.newPage();
    const blocked: string[] = [];
    // CSP refusals only: the browser's own favicon request (a 404 here) is logged as an error too, or
    // not, depending on how fast the page moves on.
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) blocked.push(m.text());
    });
    await page.goto(`${ward.url}${url}`);
    // The tkn was made by a server-side call, not in this browser: Ward asks before it signs the
    // browser in (login CSRF, issue 33); confirming posts the code to the callback.
    assert.match(await page.locator('h1').innerText(), /on this device\?/);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(callback, { timeout: 15_000 });
    assert.deepEqual(blocked, [], 'no CSP violation');
    assert.equal(received.length, 1);
    const got = received[0]!;
    assert.equal(got.path, '/cb');
    assert.equal(got.method, 'POST');
    assert.equal(got.contentType, 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(got.body);
    assert.equal(form.get('state'), 's-"<fp>');
    assert.equal(form.get('iss'), ward.url);
    const { res, body } = await redeem(ward, form.get('code')!, pkce.verifier, 'fp', callback);
    assert.equal(res.status, 200, JSON.stringify(body));
    await page.close();
  });
});
