// AZ-20: property test of the redirect_uri rule (derived from AZ-01/AZ-03). fast-check builds
// mutations of the registered URI (case flips, percent-encoding, dot segments, "@" and "\",
// unicode homoglyphs, trailing/leading spaces, tabs, CR/LF, NUL): exactly one string is accepted,
// the original. 10k runs in-process (the pure rule and the whole validation pipeline), a few hundred
// over HTTP against a listening Ward.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { isRegisteredRedirectUri } from '../../../src/protocol/authorize/check-redirect-uri.js';
import { validateAuthorizeRequest } from '../../../src/protocol/authorize/pipeline.js';
import { PUBLIC_CLIENT } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { CHALLENGE, codeRequest } from './support.js';

const ORIGINAL = 'https://app.example/cb';
const REGISTERED = PUBLIC_CLIENT.allowed_callback_urls;

const HOMOGLYPHS: Record<string, string[]> = {
  a: ['\u0430', '\u0251', '\uff41'],
  e: ['\u0435', '\uff45'],
  p: ['\u0440'],
  c: ['\u0441', '\u217d'],
  x: ['\u0445'],
  l: ['\u04cf', '\u217c'],
  m: ['\uff4d'],
  b: ['\u0184', '\uff42'],
  s: ['\u0455'],
  h: ['\u04bb'],
  t: ['\uff54'],
  '.': ['\uff0e', '\u3002', '\u2024'],
  '/': ['\u2044', '\u2215', '\uff0f'],
  ':': ['\uff1a', '\u0589'],
};

const at = (s: string, i: number) => i % (s.length + 1);
const insert = (s: string, i: number, piece: string) => s.slice(0, at(s, i)) + piece + s.slice(at(s, i));
const replaceAt = (s: string, i: number, piece: string) => {
  const j = i % s.length;
  return s.slice(0, j) + piece + s.slice(j + 1);
};

type Mutate = (s: string) => string;
const mutation: fc.Arbitrary<Mutate> = fc.oneof(
  // case flip of one character
  fc.nat().map(
    (i): Mutate =>
      (s) => {
        const c = s[i % s.length]!;
        return replaceAt(s, i, c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
      },
  ),
  // percent-encoding of one character (upper- or lowercase hex)
  fc.tuple(fc.nat(), fc.boolean()).map(
    ([i, upper]): Mutate =>
      (s) => {
        const hex = s
          .charCodeAt(i % s.length)
          .toString(16)
          .padStart(2, '0');
        return replaceAt(s, i, `%${upper ? hex.toUpperCase() : hex}`);
      },
  ),
  // dot segments and path tricks
  fc.tuple(fc.nat(), fc.constantFrom('/.', '/..', '/./', '/../', '..;/', ';', '/%2e', '/%2E%2E', '//', '/cb')).map(
    ([i, p]): Mutate =>
      (s) =>
        insert(s, i, p),
  ),
  // authority confusion
  fc
    .tuple(fc.nat(), fc.constantFrom('@', '\\', '%40', '%5C', '@evil.tld', 'evil.tld@', '\\@evil.tld', ':443', ':'))
    .map(
      ([i, p]): Mutate =>
        (s) =>
          insert(s, i, p),
    ),
  // unicode homoglyph of a character that has one
  fc.tuple(fc.nat(), fc.nat()).map(
    ([i, k]): Mutate =>
      (s) => {
        const spots = [...s].map((c, j) => [c, j] as const).filter(([c]) => HOMOGLYPHS[c.toLowerCase()]);
        if (!spots.length) return `${s}\u0430`;
        const [c, j] = spots[i % spots.length]!;
        const options = HOMOGLYPHS[c.toLowerCase()]!;
        return s.slice(0, j) + options[k % options.length]! + s.slice(j + 1);
      },
  ),
  // whitespace, controls and invisible characters at either end
  fc
    .tuple(
      fc.constantFrom(
        ' ',
        '\t',
        '\r',
        '\n',
        '\r\n',
        '\u0000',
        '\u000b',
        '\u00a0',
        '\u200b',
        '\ufeff',
        '%20',
        '%09',
        '%00',
        '/',
        '?',
        '#',
        '.',
        '&',
      ),
      fc.boolean(),
    )
    .map(
      ([p, front]): Mutate =>
        (s) =>
          front ? p + s : s + p,
    ),
  // any other character anywhere
  fc.tuple(fc.nat(), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 })).map(
    ([i, p]): Mutate =>
      (s) =>
        insert(s, i, p),
  ),
);

/** 1 to 4 mutations of a registered URI (a case flip of "/" or ":" can give the original back). */
const mutated = (base: fc.Arbitrary<string> = fc.constant(ORIGINAL)) =>
  fc.tuple(base, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([b, ms]) => ms.reduce((s, m) => m(s), b));

describe('AZ-20: fuzzed redirect_uri', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  it('the generator really mutates (a vacuous fuzz would prove nothing)', () => {
    const sample = fc.sample(mutated(), 2000);
    assert.ok(sample.filter((s) => s !== ORIGINAL).length > 1950);
    assert.ok(new Set(sample).size > 1500);
  });

  it('isRegisteredRedirectUri: 10k mutations of either registered URI, only the registered strings pass', () => {
    const accepted = new Set<string>();
    fc.assert(
      fc.property(mutated(fc.constantFrom(...REGISTERED)), (uri) => {
        const ok = isRegisteredRedirectUri(REGISTERED, uri);
        if (ok) accepted.add(uri);
        return ok === REGISTERED.includes(uri);
      }),
      { numRuns: 10_000 },
    );
    assert.ok([...accepted].every((u) => REGISTERED.includes(u)));
    assert.equal(isRegisteredRedirectUri(REGISTERED, ORIGINAL), true);
    for (const v of [undefined, null, 42, [ORIGINAL], { toString: () => ORIGINAL }])
      assert.equal(isRegisteredRedirectUri(REGISTERED, v), false);
  });

  it('the validation pipeline: 10k mutations, exactly one accepted string, every other one a non-redirectable error', async () => {
    const findClient = (id: string) => ward.registry.clients.find(id);
    const resources = ward.registry.resources;
    const params = {
      client_id: 'spa',
      response_type: 'code',
      scope: 'openid',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    };
    const accepted = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutated(), async (uri) => {
        const v = await validateAuthorizeRequest({ ...params, redirect_uri: uri }, [], findClient, resources);
        if (v.ok) {
          accepted.add(uri);
          return uri === ORIGINAL && v.req.target === ORIGINAL;
        }
        return uri !== ORIGINAL && v.error.redirectable === false && v.error.error === 'invalid_request';
      }),
      { numRuns: 10_000 },
    );
    const control = await validateAuthorizeRequest({ ...params, redirect_uri: ORIGINAL }, [], findClient, resources);
    assert.equal(control.ok, true);
    assert.ok(
      [...accepted].every((u) => u === ORIGINAL),
      [...accepted].join(', '),
    );
  });

  it('over HTTP: 300 mutations, only the original is redirected to; every other one is the 400 page with no Location', async () => {
    await fc.assert(
      fc.asyncProperty(mutated(), async (uri) => {
        const res = await ward.fetch(codeRequest({ redirect_uri: uri, prompt: 'none' }));
        await res.arrayBuffer();
        const location = res.headers.get('location');
        if (uri === ORIGINAL) return res.status === 302 && location!.startsWith(`${ORIGINAL}?error=login_required`);
        return res.status === 400 && location === null;
      }),
      { numRuns: 300 },
    );
  });
});
