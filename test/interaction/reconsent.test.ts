// Consents to accept again at sign-in (issue 37, item 1) at the HTTP level, both engines: a consent
// definition's new version published with `require_reconsent` shows a user on an older version (or
// without a required one) a hosted page with the new title and description after the password; a
// required one left unchecked signs nothing in (a clear page, nothing recorded); accepting records the
// new version (reporter end_user, the history, user.consents_changed) and the code follows; an unchecked
// optional one is recorded as declined. Users on the current version, archived definitions and versions
// without the flag never ask. An SSO session: prompt=none answers interaction_required, else the page,
// then the code in that same session; the password grant (no page) is refused the same way. Cancel
// answers access_denied. French by ui_locales.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { pageField, passwordOnLoginPage } from '../helpers/hosted-login.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const text = (language: string, title: string) => ({ language, title, description: `${title}, in full` });
const TERMS_V1 = { version_id: 1, texts: [text('en', 'Terms v1')] };
const NEWS_V1 = { version_id: 1, texts: [text('en', 'Newsletter v1')] };
const terms = (...later: object[]) => ({
  key: 'terms',
  consent_type: 'opt-in',
  required: true,
  versions: [TERMS_V1, ...later],
});
const newsletter = (...later: object[]) => ({
  key: 'newsletter',
  consent_type: 'opt-in',
  versions: [NEWS_V1, ...later],
});
const TERMS_V2 = {
  version_id: 2,
  require_reconsent: true,
  texts: [text('en', 'Terms of use v2'), text('fr', 'Conditions générales v2')],
};
const NEWS_V2 = { version_id: 2, require_reconsent: true, texts: [text('en', 'Newsletter v2')] };
const V1 = [terms(), newsletter()];
const V2 = [terms(TERMS_V2), newsletter(NEWS_V2)];
const BOTH = { terms: { granted: true }, newsletter: { granted: true } };

for (const engine of engines()) {
  describe(`consents to accept again at sign-in (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [
          PUBLIC_CLIENT,
          { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] },
        ],
        account: { rate_limits: { signup: { limit: null }, login: { limit: null }, consents: { limit: null } } },
      });
    });
    after(() => ward.close());

    const consentsOf = (userId: string) => ward.registry.storage.userConsents.ofUser(userId);
    const versions = async (userId: string) =>
      Object.fromEntries((await consentsOf(userId)).map((c) => [c.key, [c.version_id, c.granted, c.reporter]]));
    const audited = async (userId: string) => {
      await ward.registry.events.flush();
      const rows = await ward.registry.db.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'user.consents_changed')
        .execute();
      return rows.filter((e) => JSON.stringify(e).includes(userId));
    };
    const postPage = (browser: Browser, html: string, checked: string[], decision = 'accept') =>
      browser.postForm(decision === 'accept' ? '/oauth/authorize/reconsent' : '/oauth/authorize/consent', {
        interaction: pageField(html, 'interaction'),
        csrf: pageField(html, 'csrf'),
        decision,
        ...Object.fromEntries(checked.map((k) => [`consent_${k}`, '1'])),
      });
    const passwordGrant = (user: { email: string; password: string }) =>
      tokenRequest(ward, {
        grant_type: 'password',
        client_id: 'mobile',
        username: user.email,
        password: user.password,
        scope: 'openid',
      });
    /** The callback's code, redeemed: the ID token's claims. */
    const tokensOf = async (res: Awaited<ReturnType<Browser['get']>>, verifier: string, state: string) => {
      const cb = location(res);
      assert.equal(`${cb.origin}${cb.pathname}`, 'https://app.example/cb');
      assert.equal(cb.searchParams.get('state'), state);
      const { body } = await redeem(ward, cb.searchParams.get('code')!, verifier);
      assert.ok(body.id_token, JSON.stringify(body));
      return decodeJwt(body.id_token);
    };

    it('asks a user on an older version; a required one refused signs nothing in; accepting goes on', async () => {
      ward.setAccount({ consents: V1 });
      const user = await signup(ward, 'spa', { consents: BOTH });
      const first = await passwordOnLoginPage(ward, user, 'rc-1');
      assert.equal(first.res.status, 303, 'v1 is current: no page');

      ward.setAccount({ consents: V2 });
      const { browser, pkce, res } = await passwordOnLoginPage(ward, user, 'rc-2');
      assert.equal(res.status, 200, 'the page, no code yet');
      const html = await res.text();
      assert.match(html, /Before you continue to Shop SPA/);
      assert.match(html, new RegExp(`You are signed in as ${user.email.replace(/[.]/g, '\\.')}`));
      assert.match(html, /Terms of use v2 \(required\)/);
      assert.match(html, /Terms of use v2, in full/);
      assert.match(html, /Newsletter v2 \(optional\)/);
      assert.doesNotMatch(html, /Terms v1|Newsletter v1/, 'the new texts only');
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);

      const refused = await postPage(browser, html, ['newsletter']);
      assert.equal(refused.status, 403, 'a required one unchecked: no sign-in');
      const refusedHtml = await refused.text();
      assert.match(refusedHtml, /cannot be completed without your agreement to: Terms of use v2/);
      assert.match(refusedHtml, /id="consent_newsletter" name="consent_newsletter" value="1" checked/);
      assert.doesNotMatch(refusedHtml, /id="consent_terms" name="consent_terms" value="1" checked/);
      assert.deepEqual(await versions(user.id), { newsletter: [1, true, 'end_user'], terms: [1, true, 'end_user'] });

      const ok = await postPage(browser, refusedHtml, ['terms']);
      assert.equal(ok.status, 303, await ok.text());
      const claims = await tokensOf(ok, pkce.verifier, 'rc-2');
      assert.equal(claims.sub, user.id);
      assert.deepEqual(await versions(user.id), {
        newsletter: [2, false, 'end_user'],
        terms: [2, true, 'end_user'],
      });
      const stored = await consentsOf(user.id);
      assert.deepEqual(
        stored.map((c) => c.language),
        ['en', 'en'],
      );
      const history = await ward.registry.storage.userConsents.history(user.id);
      assert.deepEqual(history.map((h) => [h.key, h.version_id, h.granted]).slice(-2), [
        ['terms', 2, true],
        ['newsletter', 2, false],
      ]);
      const events = await audited(user.id);
      assert.equal(events.length, 2, 'the signup, then the answers');
      assert.match(JSON.stringify(events[1]), /end_user/);
      assert.notEqual((await postPage(browser, html, ['terms'])).status, 303, 'the page answers once');

      const next = await passwordOnLoginPage(ward, user, 'rc-3');
      assert.equal(next.res.status, 303, 'on the current version now: never asked again');
      assert.equal((await passwordGrant(user)).status, 200, 'nor by the password grant');
    });

    it('refuses the password grant (no page) until the consents are answered on the hosted pages', async () => {
      ward.setAccount({ consents: V1 });
      const user = await signup(ward, 'spa', { consents: BOTH });
      assert.equal((await passwordGrant(user)).status, 200);
      ward.setAccount({ consents: V2 });
      const refused = await passwordGrant(user);
      const body = (await refused.json()) as Record<string, unknown>;
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(body.error, 'interaction_required');
      assert.equal(body.error_message_key, 'error.authorize.reconsentRequired');
      const { browser, res } = await passwordOnLoginPage(ward, user, 'pg');
      assert.equal((await postPage(browser, await res.text(), ['terms'])).status, 303);
      assert.equal((await passwordGrant(user)).status, 200);
    });

    it('never asks a user on the current version, for an archived definition or a version without the flag', async () => {
      ward.setAccount({ consents: V2 });
      const current = await signup(ward, 'spa', { consents: BOTH });
      assert.equal((await passwordOnLoginPage(ward, current, 'cur')).res.status, 303);

      ward.setAccount({ consents: V1 });
      const older = await signup(ward, 'spa', { consents: { terms: { granted: true } } });
      const unflagged = { ...TERMS_V2, require_reconsent: false };
      const archived = { ...newsletter(NEWS_V2), key: 'newsletter', status: 'archived' };
      ward.setAccount({ consents: [terms(unflagged), archived] });
      assert.equal((await passwordOnLoginPage(ward, older, 'old')).res.status, 303, 'nothing asks');
      // A later version without the flag after one with it: still asked (the flagged one is newer than v1).
      ward.setAccount({
        consents: [terms(TERMS_V2, { version_id: 3, texts: [text('en', 'Terms v3')] }), newsletter()],
      });
      const page = await passwordOnLoginPage(ward, older, 'v3');
      assert.equal(page.res.status, 200);
      const html = await page.res.text();
      assert.match(html, /Terms v3 \(required\)/, 'the current version is the one shown');
      assert.doesNotMatch(html, /Newsletter/, 'an optional consent never given is not asked');
      const ok = await postPage(page.browser, html, ['terms']);
      await tokensOf(ok, page.pkce.verifier, 'v3');
      assert.deepEqual(await versions(older.id), { terms: [3, true, 'end_user'] });
    });

    it('asks for a required consent the user never gave', async () => {
      ward.setAccount({ consents: [] });
      const user = await signup(ward);
      ward.setAccount({ consents: [terms(TERMS_V2), newsletter(NEWS_V2)] });
      const { browser, pkce, res } = await passwordOnLoginPage(ward, user, 'never');
      const html = await res.text();
      assert.match(html, /Terms of use v2 \(required\)/);
      assert.doesNotMatch(html, /Newsletter/);
      const ok = await postPage(browser, html, ['terms']);
      await tokensOf(ok, pkce.verifier, 'never');
      assert.deepEqual(await versions(user.id), { terms: [2, true, 'end_user'] });
    });

    it('an SSO session: prompt=none answers interaction_required, else the page and the code in that session', async () => {
      ward.setAccount({ consents: V1 });
      const user = await signup(ward, 'spa', { consents: BOTH });
      const first = await passwordOnLoginPage(ward, user, 'sso-1');
      const sid = (await tokensOf(first.res, first.pkce.verifier, 'sso-1')).sid;
      assert.ok(sid);
      ward.setAccount({ consents: V2 });
      const authorize = (state: string, challenge: string, extra: Record<string, string> = {}) =>
        first.browser.get(
          authorizeUrl({
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: 'https://app.example/cb',
            scope: 'openid',
            state,
            code_challenge: challenge,
            code_challenge_method: 'S256',
            ...extra,
          }),
        );
      const silent = await authorize('none', pkcePair().challenge, { prompt: 'none' });
      assert.equal(silent.status, 302);
      const answer = location(silent);
      assert.equal(answer.searchParams.get('error'), 'interaction_required');
      assert.equal(answer.searchParams.get('state'), 'none');
      assert.equal(answer.searchParams.get('code'), null);

      const pkce = pkcePair();
      const shown = await authorize('sso-2', pkce.challenge);
      assert.equal(shown.status, 200);
      const html = await shown.text();
      assert.match(html, /Terms of use v2 \(required\)/);
      const ok = await postPage(first.browser, html, ['terms', 'newsletter']);
      assert.equal(ok.status, 303, await ok.text());
      const claims = await tokensOf(ok, pkce.verifier, 'sso-2');
      assert.equal(claims.sid, sid, 'the same session answered');
      assert.deepEqual(await versions(user.id), { newsletter: [2, true, 'end_user'], terms: [2, true, 'end_user'] });
      const again = await authorize('sso-3', pkcePair().challenge, { prompt: 'none' });
      assert.ok(location(again).searchParams.get('code'), 'nothing owed: the session answers');
    });

    it('cancels with access_denied and records nothing; speaks French', async () => {
      ward.setAccount({ consents: V1 });
      const user = await signup(ward, 'spa', { consents: BOTH });
      ward.setAccount({ consents: V2 });
      const { browser, res } = await passwordOnLoginPage(ward, user, 'fr-1', { ui_locales: 'fr' });
      const html = await res.text();
      assert.match(html, /<html lang="fr">/);
      assert.match(html, /Avant de continuer vers Shop SPA/);
      assert.match(html, /Conditions générales v2 \(obligatoire\)/);
      assert.match(html, /Newsletter v2 \(facultatif\)/, 'a version without French falls back to its first text');
      assert.match(html, /Annuler la connexion/);
      const refused = await postPage(browser, html, []);
      assert.match(await refused.text(), /Votre connexion ne peut pas aboutir sans votre accord pour : Conditions/);
      const cancelled = await postPage(browser, html, [], 'deny');
      assert.equal(cancelled.status, 303);
      assert.equal(location(cancelled).searchParams.get('error'), 'access_denied');
      assert.deepEqual(await versions(user.id), { newsletter: [1, true, 'end_user'], terms: [1, true, 'end_user'] });

      const fr = await passwordOnLoginPage(ward, user, 'fr-2', { ui_locales: 'fr' });
      const ok = await postPage(fr.browser, await fr.res.text(), ['terms']);
      await tokensOf(ok, fr.pkce.verifier, 'fr-2');
      const stored = await consentsOf(user.id);
      assert.equal(stored.find((c) => c.key === 'terms')?.language, 'fr', 'the language shown is recorded');
    });
  });
}
