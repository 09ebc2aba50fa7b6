// response_mode=web_message (the SDK's checkSession / iframe login): a page that posts
// {type: "authorization_response", response} to each allowed origin, framable only by them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('web_message response mode', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  function scriptOf(html: string): string {
    const m = /<script>([\s\S]*)<\/script>/.exec(html);
    assert.ok(m, 'a script');
    return m[1]!;
  }

  it('answers login_required to a page with no session, posted only to the allowed origins', async () => {
    const { challenge } = pkcePair();
    const res = await new Browser(ward).get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        response_mode: 'web_message',
        prompt: 'none',
        scope: 'openid',
        state: 's"</script>',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /frame-ancestors https:\/\/app\.example;/);
    const html = await res.text();
    const script = scriptOf(html);
    assert.ok(!script.includes('</script'), 'state cannot close the script');
    assert.ok(
      csp.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`),
      'the CSP names the script by hash',
    );
    const posted: Array<[unknown, string]> = [];
    new Function('window', script)({ parent: { postMessage: (m: unknown, o: string) => posted.push([m, o]) } });
    assert.deepEqual(posted, [
      [
        {
          type: 'authorization_response',
          response: {
            error: 'login_required',
            error_description: 'The user is not signed in',
            state: 's"</script>',
            iss: ward.url,
          },
        },
        'https://app.example',
      ],
    ]);
  });

  it('answers a code to a page with a session', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const first = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        tkn: user.tkn,
        ...(() => {
          const p = pkcePair();
          return { code_challenge: p.challenge, code_challenge_method: 'S256' };
        })(),
      }),
    );
    assert.equal(first.status, 302);
    const { challenge } = pkcePair();
    const res = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        response_mode: 'web_message',
        prompt: 'none',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const posted: Array<[{ response: Record<string, string> }, string]> = [];
    new Function('window', scriptOf(await res.text()))({
      parent: { postMessage: (m: never, o: string) => posted.push([m, o]) },
    });
    assert.equal(posted.length, 1);
    assert.match(posted[0]![0].response.code!, /^[A-Za-z0-9_-]{43}$/);
  });
});
