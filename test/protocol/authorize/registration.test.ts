// Client registration side of the redirect_uri rules: AZ-03 (javascript:/data: in any letter case,
// userinfo, fragments refused at registration) and AZ-09 (http only for loopback). Tests
// callbackUrlProblem (src/lib/url.ts) and validateClient (src/config/validate.ts) in-process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Problems, validateClient } from '../../../src/config/validate.js';
import { callbackUrlProblem } from '../../../src/lib/url.js';
import { PUBLIC_CLIENT } from '../../helpers/oauth.js';

const ACCEPTED = [
  'https://app.example/cb',
  'https://app.example/cb?a=1',
  'https://app.example:8443/cb',
  'https://app.example',
  'http://127.0.0.1:8123/cb',
  'http://127.0.0.1/cb',
  'http://[::1]:8123/cb',
  'http://localhost:3000/cb',
  'com.example.app:/oauth2redirect',
  'https://facebook.com/messenger_platform/account_linking/',
];

/** Every letter-case spelling of a word (2^n), e.g. all 1024 of "javascript". */
function allCases(word: string): string[] {
  let out = [''];
  for (const ch of word)
    out = out.flatMap((p) =>
      ch.toLowerCase() === ch.toUpperCase() ? [p + ch] : [p + ch.toLowerCase(), p + ch.toUpperCase()],
    );
  return out;
}

const REFUSED: Array<[string, RegExp]> = [
  ['javascript:alert(1)', /javascript/],
  ['JaVaScRiPt:alert(1)', /javascript/],
  ['javascript://app.example/%0aalert(1)', /javascript/],
  ['data:text/html,<script>alert(1)</script>', /data/],
  ['DATA:text/html;base64,PHNjcmlwdD4=', /data/],
  ['vbscript:msgbox(1)', /vbscript/],
  ['file:///etc/passwd', /file/],
  ['https://user:pass@app.example/cb', /userinfo/],
  ['https://user@app.example/cb', /userinfo/],
  ['https://app.example@evil.tld/cb', /userinfo/],
  ['https://@app.example/cb', /userinfo/],
  ['https://:@app.example/cb', /userinfo/],
  ['https:@evil.tld/cb', /userinfo/],
  ['com.example.app://@evil.tld/cb', /userinfo/],
  ['https:app.example/cb', /scheme:\/\/host/],
  ['https:///evil.tld/cb', /scheme:\/\/host/],
  ['https://app.example/cb#frag', /fragment/],
  ['https://app.example/cb#', /fragment/],
  ['http://app.example/cb', /https/],
  ['HTTP://app.example/cb', /https/],
  ['http://127.0.0.1.evil.tld/cb', /https/],
  ['http://localhost.evil.tld/cb', /https/],
  ['http://10.0.0.1/cb', /https/],
  ['https://evil.tld\\@app.example/cb', /backslash/],
  ['https://app.example/cb\r\nX: y', /control/],
  ['https://app.example/cb\u0000', /control/],
  [' https://app.example/cb', /spaces/],
  ['\tjavascript:alert(1)', /control|javascript/],
  ['//evil.tld/cb', /absolute/],
  ['/cb', /absolute/],
  ['app:/cb', /scheme/],
  ['ftp://app.example/cb', /scheme/],
  ['https://app.example%2eevil.tld/cb', /host/],
  ['', /non-empty/],
  [`https://app.example/${'a'.repeat(2100)}`, /2048/],
];

describe('callbackUrlProblem (registration of Allowed Callback URLs)', () => {
  it('AZ-03/AZ-09: accepts https, loopback http and reverse-domain private-use schemes', () => {
    for (const url of ACCEPTED) assert.equal(callbackUrlProblem(url), null, url);
  });

  it('AZ-03/AZ-09: refuses dangerous schemes, userinfo (even empty), fragments, http off loopback, control characters', () => {
    for (const [url, why] of REFUSED) {
      const problem = callbackUrlProblem(url);
      assert.ok(problem, `${JSON.stringify(url)} must be refused`);
      assert.match(problem, why, `${JSON.stringify(url)}: ${problem}`);
    }
  });

  it('AZ-03: refuses javascript: and data: in every one of their letter-case spellings', () => {
    for (const scheme of [...allCases('javascript'), ...allCases('data')]) {
      assert.ok(callbackUrlProblem(`${scheme}:alert(1)`), scheme);
      assert.ok(callbackUrlProblem(`${scheme}://app.example/cb`), scheme);
    }
  });
});

describe('validateClient (config file and management API)', () => {
  const check = (urls: unknown) => {
    const p = new Problems();
    const c = validateClient(p, 'clients[0]', { ...PUBLIC_CLIENT, allowed_callback_urls: urls });
    return { c, problems: p.list };
  };

  it('AZ-03: a client with a javascript:, data: or userinfo callback is not registered, and the key is named', () => {
    for (const bad of [
      'JAVASCRIPT:alert(1)',
      'jaVascript:alert(1)',
      'Data:text/html,x',
      'https://a@app.example/cb',
      'https://app.example/cb#x',
      'http://app.example/cb',
    ]) {
      const { c, problems } = check(['https://app.example/cb', bad]);
      assert.equal(c, null, bad);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.ok(problems[0]!.startsWith('clients[0].allowed_callback_urls[1]: '), problems[0]);
    }
  });

  it('AZ-09: http callbacks only on loopback; the same client with https or loopback http registers', () => {
    const ok = check(['https://app.example/cb', 'http://127.0.0.1:8123/cb']);
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.c!.allowed_callback_urls, ['https://app.example/cb', 'http://127.0.0.1:8123/cb']);
    assert.equal(check(['http://app.example/cb']).c, null);
  });

  it('AZ-03: callbacks must be an array of strings', () => {
    assert.equal(check('https://app.example/cb').c, null);
    assert.equal(check([42]).c, null);
  });
});
