// Issue 38, item 5: the approximate place of a session, only from a local GeoIP database
// (WARD_GEOIP_DATABASE). The database is written by the test's own MaxMind DB writer
// (helpers/mmdb-writer.ts) and read back through the `maxmind` library first. Through a trusted proxy's
// X-Forwarded-For, a sign-in from a public address in the database shows "City, Country" (or the country
// alone) in the list of the JSON API and on the account page, in the user's language; a loopback or
// private address shows nothing; a missing or corrupt file shows nothing and is logged once, never a
// failure. Both engines for the HTTP part.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Reader } from 'maxmind';
import { createPlaces, publicAddress } from '../../src/self-service/places.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { writeMmdb } from '../helpers/mmdb-writer.js';
import { authorizeUrl, location, passwordLogin, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { FIREFOX } from '../helpers/sign-ins.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const LONDON = '81.2.69.160';
const PARIS = '2.125.160.216';
const dir = mkdtempSync(join(tmpdir(), 'ward-geoip-'));
const DB = join(dir, 'city.mmdb');
writeFileSync(
  DB,
  writeMmdb({
    '81.2.69.0/24': {
      city: { geoname_id: 2643743, names: { en: 'London', fr: 'Londres', de: 'London', es: 'Londres' } },
      country: { iso_code: 'GB', names: { en: 'United Kingdom', fr: 'Royaume-Uni', de: 'Vereinigtes Königreich' } },
    },
    '2.125.160.0/24': { country: { iso_code: 'FR', names: { en: 'France', de: 'Frankreich', es: 'Francia' } } },
  }),
);

const logger = () => {
  const lines: string[] = [];
  return { lines, warn: (_o: object, msg: string) => void lines.push(msg) };
};

describe('the place of an address from a local GeoIP database', () => {
  it('is written in the MaxMind DB format the maxmind library reads', async () => {
    const { readFileSync } = await import('node:fs');
    const r = new Reader(readFileSync(DB));
    assert.equal((r.get(LONDON) as any).city.names.fr, 'Londres');
    assert.equal((r.get(PARIS) as any).country.iso_code, 'FR');
    assert.equal(r.get('8.8.8.8'), null);
  });

  it('names city and country in the language asked, English otherwise; nothing for a private address', async () => {
    const log = logger();
    const places = createPlaces(DB, log);
    assert.deepEqual(await places.of(LONDON, 'fr'), { city: 'Londres', country: 'Royaume-Uni' });
    assert.deepEqual(await places.of(`::ffff:${LONDON}`, 'es'), { city: 'Londres', country: 'United Kingdom' });
    assert.deepEqual(await places.of(PARIS, 'de'), { city: null, country: 'Frankreich' });
    for (const ip of ['10.1.2.3', '192.168.0.9', '127.0.0.1', '::1', 'fd00::1', '8.8.8.8', '2001:4860::8888', null])
      assert.equal(await places.of(ip, 'en'), null, String(ip));
    assert.equal(publicAddress('172.20.0.1'), null);
    assert.equal(publicAddress('not an address'), null);
    assert.deepEqual(log.lines, []);
  });

  it('shows nothing without a setting, and logs a missing or corrupt file once', async () => {
    assert.equal(await createPlaces(null, logger()).of(LONDON, 'en'), null);
    const corrupt = join(dir, 'corrupt.mmdb');
    writeFileSync(corrupt, Buffer.from('this is not a MaxMind database at all'));
    for (const file of [join(dir, 'missing.mmdb'), corrupt]) {
      const log = logger();
      const places = createPlaces(file, log);
      assert.equal(await places.of(LONDON, 'en'), null);
      assert.equal(await places.of(PARIS, 'en'), null);
      assert.equal(log.lines.length, 1, file);
    }
  });
});

for (const engine of engines()) {
  describe(`sessions listed with their place (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [{ client_id: 'spa', type: 'public', allowed_callback_urls: ['https://app.example/cb'], sso: true }],
        account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
        env: { WARD_GEOIP_DATABASE: DB, WARD_TRUSTED_PROXIES: 'loopback' },
      });
    });
    after(() => ward.close());

    /** Signs in through the trusted proxy, from `ip` (none: the loopback address itself). */
    async function signInFrom(browser: Browser, user: { email: string; password: string }, ip?: string) {
      const pkce = pkcePair();
      const tkn = await passwordLogin(ward, user.email, user.password, 'spa', 'openid');
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          tkn,
        }),
        { 'user-agent': FIREFOX, ...(ip ? { 'x-forwarded-for': ip } : {}) },
      );
      const code = location(res).searchParams.get('code');
      assert.ok(code, `a code: ${res.headers.get('location')}`);
      const { body } = await redeem(ward, code, pkce.verifier);
      return body.access_token!;
    }

    it('shows the place of a public address in the API and on the account page, nothing for loopback', async () => {
      const user = await signup(ward);
      const london = new Browser(ward);
      const access = await signInFrom(london, user, LONDON);
      await signInFrom(new Browser(ward), user, PARIS);
      await signInFrom(new Browser(ward), user);

      const res = await ward.fetch('/identity/v1/me/sessions', {
        headers: { authorization: `Bearer ${access}`, 'accept-language': 'fr' },
      });
      assert.equal(res.status, 200);
      const { sessions } = (await res.json()) as { sessions: Array<{ current: boolean; place: unknown }> };
      assert.equal(sessions.length, 3);
      assert.deepEqual(sessions.find((s) => s.current)?.place, { city: 'Londres', country: 'Royaume-Uni' });
      const others = sessions.filter((s) => !s.current).map((s) => s.place);
      assert.deepEqual(
        others.sort((a, b) => String(a).localeCompare(String(b))),
        [{ city: null, country: 'France' }, null].sort((a, b) => String(a).localeCompare(String(b))),
      );

      const page = await london.get('/identity/v1/account', { 'accept-language': 'fr', 'x-forwarded-for': LONDON });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /Lieu approximatif : Londres, Royaume-Uni/);
      assert.match(html, /Lieu approximatif : France/);
      assert.doesNotMatch(html, /n'est pas affiché/);
    });
  });
}
