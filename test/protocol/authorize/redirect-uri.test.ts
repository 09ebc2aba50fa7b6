// redirect_uri over HTTP: AZ-01 (exact string match), AZ-02 (registered query), AZ-03 (bypass corpus,
// request side), AZ-04 (unknown client), AZ-05 (unregistered URI), AZ-06 (redirect_uri required with
// several registered), AZ-09 (http for web clients, loopback for native ones), AZ-12 (prompt=none
// never turns an invalid request into a redirect).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT, authorizeUrl } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { CB, assertErrorPage, assertErrorRedirect, codeRequest } from './support.js';

const QUERY_CLIENT = {
  ...PUBLIC_CLIENT,
  client_id: 'with-query',
  allowed_callback_urls: ['https://app.example/cb?a=1'],
};
const SINGLE_CLIENT = { ...PUBLIC_CLIENT, client_id: 'single', allowed_callback_urls: ['https://single.example/cb'] };
const NATIVE_CLIENT = {
  ...PUBLIC_CLIENT,
  client_id: 'native',
  allowed_origins: [],
  allowed_callback_urls: ['http://127.0.0.1:8123/cb', 'com.example.app:/oauth2redirect'],
};

export const AZ01_VARIANTS = [
  'https://app.example/cb/',
  'https://APP.example/cb',
  'HTTPS://app.example/cb',
  'https://app.example/CB',
  'https://app.example/cb?x=1',
  'https://app.example/cb#f',
  'https://app.example:443/cb',
  'https://app.example/cb%2F',
  'https://app.example/%63b',
  'https://app.example/cb?',
  'https://app.example/cb#',
  'https://app.example./cb',
  'https://app.example/./cb',
  'https://app.example//cb',
  ' https://app.example/cb',
  'https://app.example/cb ',
];

export const AZ03_CORPUS = [
  'https://app.example@evil.tld/cb',
  'https://evil.tld\\@app.example/cb',
  'https://app.example.evil.tld/cb',
  'https://app.example%2eevil.tld/cb',
  '//evil.tld/cb',
  'https:/\\evil.tld',
  'https://app.example/cb/..;/x',
  'https://app.example/cb/../../evil',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://app.example/cb\r\nLocation: https://evil.tld',
  'https://app.example/cb\n',
  'https://app.example/cb\r',
  'https://app.example/cb\u0000',
  '\u0000https://app.example/cb',
  'https://app.example/cb%0d%0a',
  'https://app.example/cb\t',
  'https://app.example/cb@evil.tld',
  'https://app.example:@evil.tld/cb',
  'https://evil.tld/https://app.example/cb',
  'https://evil.tld/?https://app.example/cb',
  'https://app.exаmple/cb' /* Cyrillic a */,
  'evil.tld',
  '',
];

describe('redirect_uri at /oauth/authorize', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, QUERY_CLIENT, SINGLE_CLIENT, NATIVE_CLIENT] });
  });
  after(() => ward.close());

  /** prompt=none without a session: an accepted URI gets login_required there, a refused one the page. */
  const silent = (over: Record<string, string | undefined>) => ward.fetch(codeRequest({ prompt: 'none', ...over }));

  it('AZ-01: accepts the byte-identical registered string (control case)', async () => {
    assertErrorRedirect(await silent({}), CB, 'login_required', ward.url);
    assertErrorRedirect(
      await silent({ redirect_uri: 'https://app.example/other' }),
      'https://app.example/other',
      'login_required',
      ward.url,
    );
  });

  it('AZ-01: refuses every variant of the registered URI with a 400 page and no Location', async () => {
    for (const variant of AZ01_VARIANTS) {
      await assertErrorPage(await silent({ redirect_uri: variant }), 'invalid_request');
    }
  });

  it('AZ-01: a percent-encoded query value is decoded once, never twice (%2563b stays %63b)', async () => {
    // The query string carries the URI URL-encoded: %63 decodes to "c" (the exact URI, accepted);
    // %2563 decodes to the literal "%63b", which is not the registered string.
    const base = `/oauth/authorize?client_id=spa&response_type=code&scope=openid&prompt=none&state=st-123&code_challenge_method=S256&code_challenge=${codeRequest().match(/code_challenge=([^&]+)/)![1]}`;
    assertErrorRedirect(
      await ward.fetch(`${base}&redirect_uri=https%3A%2F%2Fapp.example%2F%63b`),
      CB,
      'login_required',
      ward.url,
    );
    await assertErrorPage(await ward.fetch(`${base}&redirect_uri=https%3A%2F%2Fapp.example%2F%2563b`));
  });

  it('AZ-02: a registered URI with a query matches only itself (query added, reordered or removed: refused)', async () => {
    const r = (redirect_uri: string) => silent({ client_id: 'with-query', redirect_uri });
    assertErrorRedirect(
      await r('https://app.example/cb?a=1'),
      'https://app.example/cb?a=1',
      'login_required',
      ward.url,
    );
    for (const v of [
      'https://app.example/cb?a=1&b=2',
      'https://app.example/cb?b=2&a=1',
      'https://app.example/cb',
      'https://app.example/cb?a=1&a=1',
      'https://app.example/cb?a=2',
      'https://app.example/cb?A=1',
      'https://app.example/cb?a=1#x',
    ]) {
      await assertErrorPage(await r(v), 'invalid_request');
    }
  });

  it('AZ-02: the response keeps the registered query and adds its parameters after it', async () => {
    const res = await silent({ client_id: 'with-query', redirect_uri: 'https://app.example/cb?a=1' });
    const loc = new URL(res.headers.get('location')!);
    assert.equal(loc.searchParams.get('a'), '1');
    assert.deepEqual(loc.searchParams.getAll('a'), ['1']);
  });

  it('AZ-03: refuses the bypass corpus (userinfo, host confusion, dot segments, javascript:, data:, CR/LF, NUL) with no redirect', async () => {
    for (const attempt of AZ03_CORPUS) {
      const res = await silent({ redirect_uri: attempt });
      if (attempt === '') {
        // Empty is "omitted": with two registered URIs that is AZ-06's error page.
        await assertErrorPage(res, 'invalid_request');
        continue;
      }
      await assertErrorPage(res, 'invalid_request');
    }
  });

  it('AZ-03: refusals never reflect the submitted URI into the page unescaped', async () => {
    const res = await silent({ redirect_uri: 'javascript:alert(1)//"><script>alert(2)</script>' });
    const body = await assertErrorPage(res);
    assert.ok(!body.includes('<script>alert'), 'no reflected script');
    assert.ok(!body.includes('javascript:'), 'the refused URI is not echoed');
  });

  it('AZ-04: an unknown client_id with redirect_uri=https://evil.tld gets the 400 page, no Location, no echo of the input', async () => {
    const body = await assertErrorPage(
      await ward.fetch(codeRequest({ client_id: 'nobody', redirect_uri: 'https://evil.tld' })),
      'invalid_client',
    );
    assert.ok(!body.includes('evil.tld'));
    const hostile = await assertErrorPage(
      await ward.fetch(
        codeRequest({
          client_id: '<script>alert(1)</script>"\'',
          redirect_uri: 'https://evil.tld/"><img src=x onerror=alert(1)>',
        }),
      ),
      'invalid_client',
    );
    assert.ok(
      !hostile.includes('<script>alert') && !hostile.includes('<img') && !hostile.includes('evil.tld'),
      hostile,
    );
  });

  it('AZ-04: a missing or empty client_id is a page too, whatever else is valid', async () => {
    await assertErrorPage(
      await ward.fetch(codeRequest({ client_id: undefined, redirect_uri: 'https://evil.tld' })),
      'invalid_request',
    );
    await assertErrorPage(
      await ward.fetch(codeRequest({ client_id: '', redirect_uri: 'https://evil.tld' })),
      'invalid_request',
    );
  });

  it('AZ-05: a valid client with an unregistered redirect_uri gets the 400 page, even for an error that is otherwise redirectable', async () => {
    await assertErrorPage(await ward.fetch(codeRequest({ redirect_uri: 'https://evil.tld/cb' })), 'invalid_request');
    // Another client's registered URI is still unregistered for this one.
    await assertErrorPage(
      await ward.fetch(codeRequest({ redirect_uri: 'https://single.example/cb' })),
      'invalid_request',
    );
    // A bad response_type and scope do not make the unregistered URI a redirect target.
    await assertErrorPage(
      await ward.fetch(codeRequest({ redirect_uri: 'https://evil.tld/cb', response_type: 'bogus', scope: 'nope' })),
      'invalid_request',
    );
  });

  it('AZ-06: no redirect_uri with two registered URIs is an error page, never a redirect to either', async () => {
    await assertErrorPage(await silent({ redirect_uri: undefined }), 'invalid_request');
    await assertErrorPage(
      await ward.fetch(codeRequest({ redirect_uri: undefined, response_type: 'bogus' })),
      'invalid_request',
    );
  });

  it('AZ-06: with exactly one registered URI, an omitted redirect_uri goes to that one (RFC 6749 3.1.2.3)', async () => {
    assertErrorRedirect(
      await silent({ client_id: 'single', redirect_uri: undefined }),
      'https://single.example/cb',
      'login_required',
      ward.url,
    );
  });

  it('AZ-09: http for a web client is refused, https of the same URI accepted', async () => {
    await assertErrorPage(await silent({ redirect_uri: 'http://app.example/cb' }), 'invalid_request');
    await assertErrorPage(await silent({ redirect_uri: 'http://app.example:443/cb' }), 'invalid_request');
  });

  it('AZ-09: a native loopback callback matches exactly; path, query, host spelling and port (exact, per identity-api.md) must all match', async () => {
    const r = (redirect_uri: string) => silent({ client_id: 'native', redirect_uri });
    assertErrorRedirect(await r('http://127.0.0.1:8123/cb'), 'http://127.0.0.1:8123/cb', 'login_required', ward.url);
    for (const v of [
      'http://127.0.0.1:8123/cb/',
      'http://127.0.0.1:8123/cb?x=1',
      'http://127.0.0.1:8123/CB',
      'http://127.0.0.1:8123/cb/../cb',
      'http://localhost:8123/cb',
      'http://[::1]:8123/cb',
      'https://127.0.0.1:8123/cb',
      'http://127.0.0.2:8123/cb',
      'http://127.0.0.1:8124/cb',
      'http://127.0.0.1/cb',
    ]) {
      await assertErrorPage(await r(v), 'invalid_request');
    }
  });

  it('AZ-09: a native private-use scheme callback matches exactly', async () => {
    const res = await silent({ client_id: 'native', redirect_uri: 'com.example.app:/oauth2redirect' });
    assert.equal(res.status, 302);
    assert.ok(res.headers.get('location')!.startsWith('com.example.app:/oauth2redirect?'));
    for (const v of [
      'COM.example.app:/oauth2redirect',
      'com.example.app://oauth2redirect',
      'com.example.app:/oauth2redirect/',
      'com.example.evil:/oauth2redirect',
    ]) {
      await assertErrorPage(await silent({ client_id: 'native', redirect_uri: v }), 'invalid_request');
    }
  });

  it('AZ-12: prompt=none for an unknown client or an unregistered URI is the page, never a silent redirect', async () => {
    await assertErrorPage(await silent({ client_id: 'nobody', redirect_uri: 'https://evil.tld/cb' }), 'invalid_client');
    await assertErrorPage(await silent({ redirect_uri: 'https://evil.tld/cb' }), 'invalid_request');
    await assertErrorPage(
      await silent({ redirect_uri: 'https://evil.tld/cb', response_mode: 'web_message' }),
      'invalid_request',
    );
    await assertErrorPage(
      await ward.fetch(authorizeUrl({ client_id: 'nobody', prompt: 'none', response_mode: 'web_message' })),
      'invalid_client',
    );
  });
});
