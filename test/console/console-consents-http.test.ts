// The console's Consents pages without a browser, on SQLite and PostgreSQL: /console/consents and a
// definition's page are served under the console's CSP with the scripts they name, every control
// labelled, the settings schema's rules (key and language patterns, text lengths) and Ward's languages
// on the page, the changing parts marked manage:settings; a user's page carries their consents. Then
// the requests those pages send, with a console user's token: a definition created, a version published
// by PUTting the definition back whole as GET answered it, archived and reactivated, each seen at once
// in the remote settings; two texts in one language refused; a user's consents and history as the user
// page reads them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Window } from 'happy-dom';
import { ConsentDefinition } from '../../src/config/schema/consents.js';
import { LANGUAGES } from '../../src/texts/language.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { codeFor, PUBLIC_CLIENT, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

type Definition = { key: string; status: string; required: boolean; versions: Array<{ version_id: number }> };
type RemoteConsent = { key: string; title: string; version_id: number; language: string };

for (const engine of engines())
  describe(`console: the Consents pages on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT] });
    });
    after(() => ward?.close());

    /** A token of the console's own client for a user of this role, as the console's sign-in gets it. */
    const consoleApi = async (role: 'viewer' | 'manager') => {
      const callback = `${ward.url}/console/callback`;
      const { code, verifier, user } = await codeFor(ward, {
        clientId: 'ward-console',
        redirectUri: callback,
        scope: 'openid',
      });
      await ward.registry.storage.users.setRole(user.id, role, ward.clock.now());
      const { body } = await redeem(ward, code, verifier, 'ward-console', callback);
      return api(ward, body.access_token as string);
    };
    const parse = (html: string) => new new Window().DOMParser().parseFromString(html, 'text/html');
    const page = async (path: string) => {
      const res = await ward.fetch(path);
      assert.equal(res.status, 200, path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/, path);
      assert.doesNotMatch(csp, /unsafe-inline/, path);
      const html = await res.text();
      assert.doesNotMatch(html, /<script>|\son[a-z]+=/i, `${path}: no inline script or handler`);
      const doc = parse(html);
      const scripts = [...doc.querySelectorAll('script')].map((s) => s.getAttribute('src')!);
      for (const src of scripts) {
        const js = await ward.fetch(src);
        assert.equal(js.status, 200, src);
        assert.match(js.headers.get('content-type') ?? '', /text\/javascript/, src);
      }
      return { doc, scripts: scripts.map((s) => s.replace('/console/static/', '')) };
    };
    const remote = async (lang: string) =>
      (
        (await (await ward.fetch(`/identity/v1/config?client_id=spa&lang=${lang}`)).json()) as {
          consents: RemoteConsent[];
        }
      ).consents;

    it('serves the list, a definition and the user page with their scripts, labels and the schema rules', async () => {
      type Rule = { pattern?: string; maxLength?: number };
      const texts = ConsentDefinition.properties.versions.items.properties.texts.items.properties;
      const text = texts as unknown as Record<'language' | 'title' | 'description', Rule>;
      for (const path of ['/console/consents', '/console/consents/newsletter']) {
        const { doc, scripts } = await page(path);
        assert.equal(doc.querySelector('nav a[aria-current="page"]')?.textContent, 'Consents', path);
        const mine = path === '/console/consents' ? 'consents.js' : 'consent.js';
        assert.deepEqual(scripts.slice(-2), ['consent-texts.js', mine], path);
        for (const control of doc.querySelectorAll('input, select, textarea'))
          assert.ok(doc.querySelector(`label[for="${control.id}"]`), `${path}: #${control.id} has a label`);
        const box = doc.querySelector('.consent-texts')!;
        assert.equal(box.getAttribute('data-language-pattern'), text.language.pattern, path);
        assert.equal(box.getAttribute('data-title-max'), String(text.title.maxLength), path);
        assert.equal(box.getAttribute('data-description-max'), String(text.description.maxLength), path);
        assert.deepEqual(
          [...doc.querySelectorAll('#consent-languages option')].map((o) => o.getAttribute('value')),
          [...LANGUAGES],
          `${path}: Ward's languages are offered`,
        );
      }
      const list = (await page('/console/consents')).doc;
      assert.equal(
        list.querySelector('#nc-key')?.getAttribute('data-pattern'),
        (ConsentDefinition.properties.key as Rule).pattern,
      );
      assert.equal(list.querySelector('#new-consent')?.getAttribute('data-perm'), 'manage:settings');
      assert.deepEqual(
        [...list.querySelectorAll('#nc-type option')].map((o) => o.getAttribute('value')),
        ['opt-in', 'opt-out', 'double-opt-in'],
      );
      assert.deepEqual([...list.querySelectorAll('#consents-table thead th')].map((th) => th.textContent).slice(0, 7), [
        'Key',
        'Title',
        'Type',
        'Status',
        'Required',
        'Current version',
        'Languages',
      ]);
      const one = (await page('/console/consents/newsletter')).doc;
      for (const sel of ['#publish-section', '.actions'])
        assert.equal(one.querySelector(sel)?.getAttribute('data-perm'), 'manage:settings', sel);
      assert.ok(one.querySelector('#nv-form button[type="submit"]'));
      assert.ok(one.querySelector('#versions-table'));

      const user = await page(`/console/users/${'a'.repeat(32)}`);
      assert.deepEqual(user.scripts.slice(-2), ['consent-texts.js', 'user-consents.js']);
      assert.deepEqual(
        [...user.doc.querySelectorAll('#consent-history-table thead th')].map((th) => th.textContent),
        ['Date', 'Consent', 'Change', 'Version', 'Language', 'Reported by'],
      );
      assert.ok(user.doc.querySelector('#user-consents-table'));
      const clients = (await page('/console/clients')).doc;
      assert.equal(clients.querySelector('nav a[href="/console/consents"]')?.textContent, 'Consents');
    });

    it('takes back what the pages send; two texts in one language are refused', async () => {
      const manager = await consoleApi('manager');
      const viewer = await consoleApi('viewer'); // signed up before a required consent exists
      const t = (language: string, title: string) => ({ language, title, description: `${title}, in full` });
      // consents.js: New consent definition.
      const made = await manager.put('/api/v1/consent-definitions/newsletter', {
        consent_type: 'opt-in',
        required: true,
        versions: [{ version_id: 1, texts: [t('en', 'Newsletter')] }],
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal((await remote('en')).find((c) => c.key === 'newsletter')?.version_id, 1);

      // consent.js: the definition as GET answers it, without its key, with the next version added.
      const current = async () =>
        ((await manager.get('/api/v1/consent-definitions')).body.consent_definitions as Definition[]).find(
          (d) => d.key === 'newsletter',
        )!;
      const whole = async (change: Record<string, unknown>) => {
        const { key: _key, ...d } = await current();
        return manager.put('/api/v1/consent-definitions/newsletter', { ...d, ...change });
      };
      const twice = await whole({
        versions: [...(await current()).versions, { version_id: 2, texts: [t('en', 'A'), t('EN', 'B')] }],
      });
      assert.equal(twice.status, 400);
      assert.equal(twice.body.error_message_key, 'error.settings.invalid');
      assert.match(twice.body.error_user_msg, /versions\[1\]\.texts: EN is given twice/);
      assert.deepEqual(
        twice.body.error_details,
        [{ field: 'versions[1].texts', message: 'EN is given twice (one text per language)', code: 'invalid' }],
        'named in the definition the page sent',
      );
      assert.equal((await current()).versions.length, 1, 'nothing stored');

      const published = await whole({
        versions: [...(await current()).versions, { version_id: 2, texts: [t('en', 'News'), t('fr', 'Nouvelles')] }],
      });
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.deepEqual(
        (await remote('fr')).find((c) => c.key === 'newsletter'),
        {
          key: 'newsletter',
          title: 'Nouvelles',
          description: 'Nouvelles, in full',
          consent_type: 'opt-in',
          status: 'active',
          required: true,
          version_id: 2,
          language: 'fr',
        },
        'the new version is current in the remote settings at once',
      );

      // A user's consents, as user-consents.js reads them: granted by the user at signup, withdrawn by an administrator.
      const u = await signup(ward, 'spa', {
        consents: { newsletter: { granted: true, consent_version: { version_id: 2, language: 'fr' } } },
      });
      const patched = await manager.patch(`/api/v1/users/${u.id}`, { consents: { newsletter: { granted: false } } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const read = await viewer.get(`/api/v1/users/${u.id}/profile-consents`);
      assert.equal(read.status, 200);
      assert.equal(read.body.consents.newsletter.granted, false);
      assert.equal(read.body.consents.newsletter.reporter, 'managed');
      assert.deepEqual(
        read.body.history.map((h: { granted: boolean; reporter: string; consent_version: { language: string } }) => [
          h.granted,
          h.reporter,
          h.consent_version.language,
        ]),
        [
          [true, 'end_user', 'fr'],
          [false, 'managed', 'en'],
        ],
      );

      // Archive (the page lifts `required` with it, as its dialog says), then reactivate.
      assert.equal((await whole({ status: 'archived' })).status, 400, 'a required definition is not archived');
      assert.equal((await whole({ status: 'archived', required: false })).status, 200);
      assert.equal(
        (await remote('en')).find((c) => c.key === 'newsletter'),
        undefined,
        'no longer offered',
      );
      assert.equal((await whole({ status: 'active' })).status, 200);
      assert.equal((await remote('en')).find((c) => c.key === 'newsletter')?.title, 'News');

      // A Viewer reads the definitions; the page's changing parts are manage:settings, which it lacks.
      assert.equal((await viewer.get('/api/v1/consent-definitions')).status, 200);
      const { key: _key, ...d } = await current();
      assert.equal((await viewer.put('/api/v1/consent-definitions/newsletter', d)).status, 403);
      const me = await viewer.get('/console/api/me');
      assert.ok(!me.body.permissions.includes('manage:settings'));
    });
  });
