// Users' consents to the account's consent definitions (issue 37, item 1) with the unmodified Core SDK
// against a listening Ward, on SQLite and PostgreSQL: the remote settings' `consents` in the asked
// language, signup with `data.consents` (a required one enforced), getUser({fields: 'consents'}),
// updateProfile, the refusals (unknown key, archived definition, wrong shape), a double opt-in granted
// by the link mailed through a real SMTP server, the history (management API and data download), the
// management API's definitions and user PATCH, and the user.consents_changed webhook event.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { envelopeSchema } from '../../src/webhooks/catalog.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, tokenRequest } from '../helpers/oauth.js';
import { Browser } from '../helpers/browser.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { deliverUntil, verify } from '../webhooks/manager.js';
import { Receiver } from '../webhooks/receiver.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const PASSWORD = 'a long enough password';
const SECRET = 'consents-manager-secret-of-40-characters!';
type Sdk = typeof import('@reachfive/identity-core');
type SdkError = { error?: string; errorMessageKey?: string };
type Consent = {
  granted: boolean;
  date: string;
  consent_version: { version_id: number; language: string };
  consent_type: string;
  waiting_double_accept: boolean;
  reporter: string;
};

const text = (language: string, title: string) => ({ language, title, description: `${title}, in full` });
const DEFINITIONS = [
  {
    key: 'terms',
    consent_type: 'opt-in',
    required: true,
    versions: [
      { version_id: 1, texts: [text('en', 'Terms v1')] },
      { version_id: 2, texts: [text('en', 'Terms of use'), text('fr', "Conditions d'utilisation")] },
    ],
  },
  {
    key: 'newsletter',
    consent_type: 'double-opt-in',
    versions: [{ version_id: 1, texts: [text('en', 'Newsletter')] }],
  },
  { key: 'partners', consent_type: 'opt-out', versions: [{ version_id: 1, texts: [text('en', 'Partners')] }] },
  {
    key: 'old_offers',
    consent_type: 'opt-in',
    status: 'archived',
    versions: [{ version_id: 1, texts: [text('en', 'Old offers')] }],
  },
];

for (const engine of engines())
  describe(`users' consents with the Core SDK (${engine})`, () => {
    let m: MfaWard;
    let page: SdkPage;
    let sdk: Sdk;
    const receiver = new Receiver();
    before(async () => {
      m = await startMfaWard({
        engine,
        account: {
          consents: DEFINITIONS,
          rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } },
        },
        clients: [
          PUBLIC_CLIENT,
          {
            client_id: 'shop-web',
            name: 'Shop',
            type: 'public',
            jwt_algorithm: 'RS256',
            allowed_callback_urls: [CALLBACK],
            allowed_origins: [ORIGIN],
            sso: true,
          },
          {
            client_id: 'ops',
            type: 'confidential',
            client_secret: SECRET,
            grant_types: ['client_credentials'],
            management_scopes: ['manage:webhooks', 'manage:users', 'read:users', 'read:settings', 'manage:settings'],
          },
        ],
      });
      page = installBrowserShims(m.ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await m.close();
    });

    const client = () => sdk.createClient({ domain: new URL(m.ward.url).host, clientId: 'shop-web' });
    const newEmail = () => `consent-${randomBytes(4).toString('hex')}@example.com`;
    const admin = async () => {
      const res = await tokenRequest(m.ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: SECRET,
      });
      const token = ((await res.json()) as { access_token: string }).access_token;
      return { ...api(m.ward, token), token: `Bearer ${token}` };
    };
    const consentsOf = async (accessToken: string) =>
      (
        (await client().getUser({ accessToken, fields: 'consents' })) as unknown as {
          consents: Record<string, Consent>;
        }
      ).consents;

    async function signedUp(consents: Record<string, unknown>) {
      const email = newEmail();
      const nav = page.nextNavigation();
      await client().signup({ data: { email, password: PASSWORD, consents }, auth: { redirectUri: CALLBACK } });
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      const code = location(res).searchParams.get('code')!;
      const auth = await client().exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK });
      const user = (await m.ward.registry.storage.users.findByEmail(email))!;
      return { accessToken: auth.accessToken!, email, id: user.id };
    }

    it('the remote settings list the active definitions in the asked language', async () => {
      const res = await m.ward.fetch('/identity/v1/config?client_id=shop-web&lang=fr');
      const body = (await res.json()) as { consents: Array<Record<string, unknown>> };
      assert.deepEqual(
        body.consents.map((c) => [c.key, c.title, c.consent_type, c.status, c.required, c.version_id]),
        [
          ['terms', "Conditions d'utilisation", 'opt-in', 'active', true, 2],
          ['newsletter', 'Newsletter', 'double-opt-in', 'active', false, 1],
          ['partners', 'Partners', 'opt-out', 'active', false, 1],
        ],
      );
    });

    it('signup grants, getUser reads them, a double opt-in waits for its mailed link', async () => {
      const made = await admin();
      const hook = await made.post('/api/v1/webhooks', { url: receiver.url, events: ['user.consents_changed'] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const { accessToken, email, id } = await signedUp({
        terms: { granted: true, consent_version: { version_id: 2, language: 'fr' } },
        newsletter: { granted: true },
      });
      const first = await consentsOf(accessToken);
      assert.equal(first.terms!.granted, true);
      assert.deepEqual(first.terms!.consent_version, { version_id: 2, language: 'fr' });
      assert.equal(first.terms!.consent_type, 'opt-in');
      assert.equal(first.terms!.reporter, 'end_user');
      assert.ok(!Number.isNaN(Date.parse(first.terms!.date)));
      assert.equal(first.newsletter!.granted, false);
      assert.equal(first.newsletter!.waiting_double_accept, true);

      // The mailed link opens a page; its button grants the consent, once.
      const mail = await m.smtp.next(email);
      assert.match(mail.subject, /Confirm your choice/);
      const link = new URL(/https?:\/\/\S+\/identity\/v1\/user-consents\/confirm\?token=[\w%-]+/.exec(mail.text)![0]);
      const shown = await m.ward.fetch(`${link.pathname}${link.search}`);
      assert.equal(shown.status, 200);
      assert.match(await shown.text(), /Newsletter/);
      assert.equal((await consentsOf(accessToken)).newsletter!.waiting_double_accept, true, 'opening grants nothing');
      const confirm = () =>
        m.ward.fetch(link.pathname, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: link.searchParams.get('token')! }).toString(),
        });
      assert.equal((await confirm()).status, 200);
      const confirmed = (await consentsOf(accessToken)).newsletter!;
      assert.equal(confirmed.granted, true);
      assert.equal(confirmed.waiting_double_accept, false);
      assert.equal((await confirm()).status, 400, 'the link works once');

      // Withdrawn by the user, then granted again by an administrator: every change kept.
      await client().updateProfile({ accessToken, data: { consents: { newsletter: { granted: false } } } as never });
      assert.equal((await consentsOf(accessToken)).newsletter!.granted, false);
      const patched = await made.patch(`/api/v1/users/${id}`, { consents: { partners: { granted: false } } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const listed = await made.get(`/api/v1/users/${id}/profile-consents`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.consents.partners.reporter, 'managed');
      assert.deepEqual(
        listed.body.history.map((h: Consent & { key: string }) => [
          h.key,
          h.granted,
          h.waiting_double_accept,
          h.reporter,
        ]),
        [
          ['terms', true, false, 'end_user'],
          ['newsletter', false, true, 'end_user'],
          ['newsletter', true, false, 'end_user'],
          ['newsletter', false, false, 'end_user'],
          ['partners', false, false, 'managed'],
        ],
      );

      // The user's data download carries the consents and their history.
      const exported = (await made.get(`/api/v1/users/${id}/export`)).body;
      assert.equal((exported.profile_consent_history as unknown[]).length, 5);
      assert.equal((exported.profile_consents as Record<string, Consent>).terms!.granted, true);

      // The webhook event, in each change's transaction.
      // Four changes: the signup, the link, updateProfile, the management PATCH.
      await deliverUntil(m.ward, () => receiver.delivered().length >= 4, 0, 'user.consents_changed');
      for (const r of receiver.received) {
        const event = verify(hook.body.secret as string, r) as {
          type: 'user.consents_changed';
          data: { user_id: string };
        };
        assert.equal(event.type, 'user.consents_changed');
        assert.ok(Value.Check(envelopeSchema(event.type), event), r.body);
        assert.equal(event.data.user_id, id);
      }
      const reporters = receiver.delivered().map((e) => (e.data as { reporter: string }).reporter);
      assert.ok(reporters.includes('managed') && reporters.includes('end_user'));
    });

    it('refuses a missing required consent, an unknown key, an archived definition and a wrong shape', async () => {
      const refused = async (consents: unknown, key: string) => {
        const email = newEmail();
        await assert.rejects(
          client().signup({ data: { email, password: PASSWORD, consents } as never, auth: { redirectUri: CALLBACK } }),
          (e: SdkError) => {
            assert.equal(e.error, 'invalid_request');
            assert.equal(e.errorMessageKey, key);
            return true;
          },
        );
        assert.equal(await m.ward.registry.storage.users.findByEmail(email), undefined, 'nothing stored');
      };
      const terms = { granted: true };
      await refused({ newsletter: { granted: true } }, 'error.consent.required');
      await refused({ terms: { granted: false } }, 'error.consent.required');
      await refused({ terms, nope: { granted: true } }, 'error.consent.unknown');
      await refused({ terms, old_offers: { granted: true } }, 'error.consent.archived');
      await refused({ terms: { granted: 'yes' } }, 'error.consent.invalid');
      await refused({ terms: { granted: true, consent_version: { version_id: 9 } } }, 'error.consent.invalid');
      await refused({ terms: { granted: true, consent_type: 'opt-out' } }, 'error.consent.invalid');
      await refused(['terms'], 'error.consent.invalid');

      const { accessToken } = await signedUp({ terms });
      await assert.rejects(
        client().updateProfile({ accessToken, data: { consents: { old_offers: { granted: false } } } as never }),
        (e: SdkError) => e.errorMessageKey === 'error.consent.archived',
      );
    });

    it('the management API creates, versions and archives a definition', async () => {
      const made = await admin();
      const put = await made.put('/api/v1/consent-definitions/sms_offers', {
        consent_type: 'opt-in',
        versions: [{ version_id: 1, texts: [text('en', 'SMS offers')] }],
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.status, 'active');
      const bad = await made.put('/api/v1/consent-definitions/sms_offers', {
        consent_type: 'opt-in',
        versions: [
          { version_id: 1, texts: [text('en', 'SMS offers')] },
          { version_id: 1, texts: [text('en', 'SMS offers again')] },
        ],
      });
      assert.equal(bad.status, 400, 'version ids distinct');
      assert.deepEqual(bad.body.error_details, [
        { field: 'versions', message: 'version_id must be distinct', code: 'invalid' },
      ]);
      const twice = await made.put('/api/v1/consent-definitions/sms_offers', {
        consent_type: 'opt-in',
        versions: [{ version_id: 1, texts: [text('fr-FR', 'Offres SMS'), text('fr_fr', 'Offres')] }],
      });
      assert.equal(twice.status, 400, 'one text per language');
      assert.deepEqual(twice.body.error_details, [
        { field: 'versions[0].texts', message: 'fr_fr is given twice (one text per language)', code: 'invalid' },
      ]);
      const archived = await made.put('/api/v1/consent-definitions/sms_offers', {
        consent_type: 'opt-in',
        status: 'archived',
        versions: [{ version_id: 1, texts: [text('en', 'SMS offers')] }],
      });
      assert.equal(archived.status, 200);
      const listed = await made.get('/api/v1/consent-definitions');
      const sms = listed.body.consent_definitions.find((d: { key: string }) => d.key === 'sms_offers');
      assert.equal(sms.status, 'archived');
      const config = await (await m.ward.fetch('/identity/v1/config?client_id=shop-web')).json();
      assert.ok(!(config as { consents: Array<{ key: string }> }).consents.some((c) => c.key === 'sms_offers'));
      const audit = await m.ward.registry.storage.audit.list({ target: 'consent_definition:sms_offers', limit: 10 });
      assert.equal(audit.length, 2);
      const spec = (await (await m.ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      for (const path of ['/api/v1/consent-definitions', '/api/v1/consent-definitions/{key}'])
        assert.ok(spec.paths[path], path);
      assert.ok(spec.paths['/api/v1/users/{userId}/profile-consents']);
      const pub = (await (await m.ward.fetch('/identity/v1/openapi.json')).json()) as {
        paths: Record<string, unknown>;
      };
      assert.ok(pub.paths['/identity/v1/user-consents/confirm'], 'the link in the public API description');
    });

    it('the hosted signup page shows a checkbox per consent and enforces the required ones', async () => {
      const browser = new Browser(m.ward);
      const pkce = pkcePair();
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email profile',
          state: 'st',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ui_locales: 'fr',
        }),
      );
      const href = /href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(await login.text())![1]!;
      const html = await (await browser.get(href.replace(/&amp;/g, '&'))).text();
      assert.match(html, /type="checkbox" id="consent_terms" name="consent_terms" value="1" required/);
      assert.match(html, /Conditions d&#39;utilisation|Conditions d'utilisation/);
      assert.match(html, /id="consent_newsletter"/);
      assert.doesNotMatch(html, /consent_old_offers/, 'an archived definition is not offered');
      const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!;
      const email = newEmail();
      const form = { interaction: hidden(html, 'interaction'), csrf: hidden(html, 'csrf'), email, password: PASSWORD };
      const refused = await browser.postForm('/oauth/authorize/signup', { ...form, consent_newsletter: '1' });
      assert.equal(refused.status, 400);
      const again = await refused.text();
      assert.match(again, /id="consent_newsletter" name="consent_newsletter" value="1" checked/, 'kept checked');
      assert.equal(await m.ward.registry.storage.users.findByEmail(email), undefined);
      const done = await browser.postForm('/oauth/authorize/signup', {
        ...form,
        csrf: hidden(again, 'csrf'),
        consent_terms: '1',
      });
      assert.ok(done.status === 302 || done.status === 303, `${done.status}`);
      const user = (await m.ward.registry.storage.users.findByEmail(email))!;
      const stored = await m.ward.registry.storage.userConsents.ofUser(user.id);
      assert.deepEqual(
        stored.map((c) => [c.key, c.granted, c.version_id, c.language, c.reporter]),
        [['terms', true, 2, 'fr', 'end_user']],
      );
    });

    it('a bulk import writes consents as given, reporter import, at their date', async () => {
      const made = await admin();
      const email = newEmail();
      const lines = [
        {
          email,
          consents: {
            terms: {
              granted: true,
              date: '2024-05-01T10:00:00.000Z',
              consent_version: { version_id: 1, language: 'en' },
            },
            newsletter: { granted: true },
          },
        },
        { email: newEmail(), consents: { nope: { granted: true } } },
      ];
      const res = await m.ward.fetch('/api/v1/users/import', {
        method: 'POST',
        headers: { authorization: made.token, 'content-type': 'application/x-ndjson' },
        body: lines.map((l) => JSON.stringify(l)).join('\n'),
      });
      const report = (await res.json()) as { created: number; refused: number; results: Array<{ message?: string }> };
      assert.equal(res.status, 200, JSON.stringify(report));
      assert.equal(report.created, 1);
      assert.equal(report.refused, 1);
      assert.match(JSON.stringify(report.results), /consents\.nope is not a consent of this account/);
      const user = (await m.ward.registry.storage.users.findByEmail(email))!;
      const listed = await made.get(`/api/v1/users/${user.id}/profile-consents`);
      assert.equal(listed.body.consents.terms.date, '2024-05-01T10:00:00.000Z');
      assert.equal(listed.body.consents.terms.reporter, 'import');
      assert.equal(listed.body.consents.newsletter.granted, true, 'an imported double opt-in is taken as confirmed');
      assert.equal(listed.body.consents.newsletter.waiting_double_accept, false);
      assert.equal(listed.body.history.length, 2);
    });
  });
