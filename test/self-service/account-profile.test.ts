// "Your profile" on the hosted account page, over HTTP with a cookie jar, on SQLite and PostgreSQL: the
// form shows the stored names, full name, nickname, birthdate, company, bio, default address and the
// custom fields the user may write (each type's control, labels in the user's language); a post changes
// what differs, audited as user.profile_updated, and read back by userinfo; bad input shows the form again
// with each problem beside its field and what was typed, storing nothing; the email address and phone
// number are not changed there; the form's origin and CSRF token are checked like the page's others.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_PAGE, formsOf, openPage, postPageForm, signInBrowser } from '../helpers/account-page.js';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { Browser } from '../helpers/browser.js';
import { PUBLIC_CLIENT, authorizeUrl, location, passwordLogin, pkcePair, redeem, signup } from '../helpers/oauth.js';

const ACTION = `${ACCOUNT_PAGE}/profile`;
const CUSTOM_FIELDS = [
  { name: 'member_no', data_type: 'string', required: true },
  { name: 'shoe_size', data_type: 'integer', name_translations: [{ lang_code: 'fr', label: 'Pointure' }] },
  { name: 'newsletter', data_type: 'checkbox' },
  {
    name: 'tier',
    data_type: 'select',
    values: ['silver', 'gold'],
    value_labels: [{ value: 'gold', label: 'Gold', translations: [{ lang_code: 'fr', label: 'Or' }] }],
  },
  { name: 'interests', data_type: 'tags' },
  { name: 'anniversary', data_type: 'date' },
  { name: 'work_phone', data_type: 'phone' },
  { name: 'loyalty', data_type: 'string', writable: 'admin' },
];

/** An input's value in the page (`value="..."`, or a textarea's text), entities undone. */
function fieldValue(html: string, name: string): string | undefined {
  const undo = (s: string) =>
    s
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  const input = new RegExp(`<input[^>]* name="${name}"[^>]*value="([^"]*)"`).exec(html);
  if (input) return undo(input[1]!);
  const area = new RegExp(`<textarea[^>]* name="${name}"[^>]*>([^<]*)</textarea>`).exec(html);
  return area ? undo(area[1]!) : undefined;
}
/** The problem shown beside an input (its aria-describedby's error paragraph). */
const problemOf = (html: string, name: string) =>
  new RegExp(`id="profile-${name.replace(/_/g, '-')}-error">([^<]*)<`).exec(html)?.[1];

for (const engine of engines())
  describe(`the account page's profile form (${engine})`, () => {
    let m: MfaWard;
    let admin: ReturnType<typeof api>;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: { rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
      // The console user first (it has no member number), then the account's custom fields.
      admin = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
      m.ward.setAccount({ custom_fields: CUSTOM_FIELDS });
    });
    after(() => m.close());

    const storage = () => m.ward.registry.storage;
    async function signedIn(extra: Record<string, unknown> = {}) {
      const u = await signup(m.ward, 'spa', { custom_fields: { member_no: 'M-1' }, ...extra });
      const browser = await signInBrowser(m.ward, u.email, u.password);
      return { ...u, browser };
    }

    it('shows the stored profile; a post changes what differs, audited, read back by userinfo', async () => {
      const u = await signedIn({
        nickname: 'ada',
        addresses: [
          { title: 'Home', default: true, locality: 'London', recipient: 'Ada' },
          { title: 'Office', locality: 'Paris' },
        ],
      });
      await admin.patch(`/api/v1/users/${u.id}`, { custom_fields: { loyalty: 'L-9' } });
      const page = await openPage(u.browser);
      assert.equal(page.status, 200);
      assert.match(page.html, /<h2 id="profile-h">Your profile<\/h2>/);
      assert.equal(fieldValue(page.html, 'given_name'), 'Ada');
      assert.equal(fieldValue(page.html, 'nickname'), 'ada');
      assert.equal(fieldValue(page.html, 'address_locality'), 'London', 'the default address');
      assert.equal(fieldValue(page.html, 'cf_member_no'), 'M-1');
      assert.match(page.html, /<label for="profile-cf-shoe-size">shoe size<\/label><input [^>]*type="number"/);
      assert.match(page.html, /type="checkbox" id="profile-cf-newsletter"/);
      assert.match(page.html, /<option value="gold">Gold<\/option>/);
      assert.match(page.html, /name="cf_anniversary"[^>]*type="date"/);
      assert.doesNotMatch(page.html, /cf_loyalty/, 'a field only administrators write is not on the page');
      const profileForm = /<form method="post" action="\/identity\/v1\/account\/profile"[\s\S]*?<\/form>/.exec(
        page.html,
      )![0];
      assert.doesNotMatch(profileForm, /name="email"|name="phone_number"/, 'no identifier in the profile form');

      const saved = await postPageForm(u.browser, page.html, ACTION, {
        given_name: 'Ada',
        family_name: 'King',
        name: 'Augusta Ada King',
        nickname: 'ada',
        birthdate: '1815-12-10',
        company: 'Analytical Engines',
        bio: 'Wrote the first program.\nCountess.',
        address_street_address: '12 St James Square',
        address_postal_code: 'SW1Y 4JH',
        address_locality: 'London',
        address_country: 'GB',
        cf_member_no: 'M-1',
        cf_shoe_size: '38',
        cf_newsletter: 'true',
        cf_tier: 'gold',
        cf_interests: 'maths, poetry',
        cf_anniversary: '1835-07-08',
        cf_work_phone: '+33 6 12 34 56 78',
        // Not a field of this form: never read (the address changes by its own, verified form).
        email: 'someone.else@example.com',
      });
      assert.equal(saved.status, 303, saved.html);
      assert.equal(saved.res.headers.get('location'), `${ACCOUNT_PAGE}?notice=profile_saved`);
      const after = await openPage(u.browser, saved.res.headers.get('location')!);
      assert.match(after.html, /<p role="status" id="notice">Your profile was saved\.<\/p>/);
      assert.equal(fieldValue(after.html, 'bio'), 'Wrote the first program.\nCountess.');
      assert.equal(fieldValue(after.html, 'cf_work_phone'), '+33612345678', 'stored normalised');

      const user = (await storage().users.findById(u.id))!;
      assert.equal(user.email, u.email, 'the email address is not changed here');
      assert.equal(user.family_name, 'King');
      const p = (await storage().profiles.find(u.id))!;
      assert.equal(p.name, 'Augusta Ada King');
      assert.equal(p.birthdate, '1815-12-10');
      assert.equal(p.company, 'Analytical Engines');
      assert.deepEqual(p.addresses, [
        {
          title: 'Home',
          default: true,
          locality: 'London',
          recipient: 'Ada',
          street_address: '12 St James Square',
          postal_code: 'SW1Y 4JH',
          country: 'GB',
        },
        { title: 'Office', locality: 'Paris' },
      ]);
      assert.deepEqual(p.custom_fields, {
        member_no: 'M-1',
        loyalty: 'L-9',
        shoe_size: 38,
        newsletter: true,
        tier: 'gold',
        interests: ['maths', 'poetry'],
        anniversary: '1835-07-08',
        work_phone: '+33612345678',
      });
      const audit = await admin.get(`/api/v1/audit?action=user.profile_updated&target=user:${u.id}`);
      // (The administrator's change above is one too: the user's is the one they made.)
      const event = (audit.body.events as Array<{ actor_id: string; details: { fields: string[] } }>).find(
        (e) => e.actor_id === u.id,
      );
      assert.deepEqual(event!.details.fields.sort(), [
        'addresses',
        'bio',
        'birthdate',
        'company',
        'custom_fields.anniversary',
        'custom_fields.interests',
        'custom_fields.newsletter',
        'custom_fields.shoe_size',
        'custom_fields.tier',
        'custom_fields.work_phone',
        'family_name',
        'name',
      ]);

      // Emptied fields are cleared; an emptied default address is removed, the others stay.
      const cleared = await postPageForm(u.browser, after.html, ACTION, {
        ...Object.fromEntries(['nickname', 'company', 'cf_shoe_size'].map((k) => [k, ''])),
        ...Object.fromEntries(
          ['street_address', 'postal_code', 'locality', 'country'].map((k) => [`address_${k}`, '']),
        ),
        given_name: 'Ada',
        family_name: 'King',
        name: 'Augusta Ada King',
        birthdate: '1815-12-10',
        bio: 'Wrote the first program.\nCountess.',
        cf_member_no: 'M-1',
        cf_tier: 'gold',
        cf_interests: 'maths, poetry',
        cf_anniversary: '1835-07-08',
        cf_work_phone: '+33612345678',
        // cf_newsletter unchecked: a checkbox that is not ticked posts nothing.
      });
      assert.equal(cleared.status, 303, cleared.html);
      const q = (await storage().profiles.find(u.id))!;
      assert.equal(q.nickname, null);
      assert.equal(q.company, null);
      assert.deepEqual(q.addresses, [{ title: 'Office', locality: 'Paris' }]);
      assert.equal(q.custom_fields.shoe_size, undefined);
      assert.equal(q.custom_fields.newsletter, false);
      const userinfo = await m.ward.fetch('/identity/v1/userinfo', {
        headers: { authorization: `Bearer ${await tokenOf(u)}` },
      });
      const body = (await userinfo.json()) as Record<string, unknown>;
      assert.equal(body.name, 'Augusta Ada King');
      assert.equal(body.nickname, undefined);
    });

    /** An access token of the user with the profile scope (password login, then the code flow with its tkn). */
    async function tokenOf(u: { email: string; password: string }) {
      const tkn = await passwordLogin(m.ward, u.email, u.password, 'spa', 'openid profile');
      const pkce = pkcePair();
      const res = await new Browser(m.ward).get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid profile',
          state: 'st',
          tkn,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const { body } = await redeem(m.ward, location(res).searchParams.get('code')!, pkce.verifier);
      return body.access_token!;
    }

    it('bad input shows the form again with each problem beside its field and what was typed', async () => {
      const u = await signedIn({ birthdate: '1990-01-01' });
      const page = await openPage(u.browser);
      const typed = {
        given_name: 'Ada',
        family_name: '',
        name: 'x'.repeat(301),
        nickname: '',
        birthdate: '2999-01-01',
        company: '',
        bio: '',
        cf_member_no: '',
        cf_shoe_size: 'big',
        cf_tier: 'platinum',
        cf_work_phone: '12',
        address_locality: 'a\u0001b',
      };
      const bad = await postPageForm(u.browser, page.html, ACTION, typed);
      assert.equal(bad.status, 400);
      assert.match(bad.html, /id="profile-error">Some fields are not valid: see below\.</);
      assert.equal(problemOf(bad.html, 'name'), 'At most 300 characters, without control characters.');
      assert.equal(problemOf(bad.html, 'birthdate'), 'A date in the past, such as 1990-12-31.');
      assert.equal(problemOf(bad.html, 'cf_member_no'), 'This field is required.');
      assert.equal(problemOf(bad.html, 'cf_shoe_size'), 'Enter a whole number.');
      assert.equal(problemOf(bad.html, 'cf_tier'), 'Choose one of the values.');
      assert.match(problemOf(bad.html, 'cf_work_phone')!, /international format/);
      assert.match(problemOf(bad.html, 'address_locality')!, /At most 200 characters/);
      assert.match(
        bad.html,
        /name="cf_shoe_size"[^>]*aria-describedby="profile-cf-shoe-size-error" aria-invalid="true"/,
      );
      assert.equal(fieldValue(bad.html, 'cf_shoe_size'), 'big', 'what was typed is kept');
      assert.equal(fieldValue(bad.html, 'birthdate'), '2999-01-01');
      assert.equal(fieldValue(bad.html, 'name'), 'x'.repeat(301));
      const p = (await storage().profiles.find(u.id))!;
      assert.equal(p.birthdate, '1990-01-01', 'nothing stored');
      assert.equal(p.custom_fields.member_no, 'M-1');
    });

    it('speaks the user’s language: labels, translated custom fields, notices and problems', async () => {
      const u = await signedIn({ locale: 'fr-FR' });
      const page = await openPage(u.browser);
      assert.match(page.html, /<html lang="fr">/);
      assert.match(page.html, /<h2 id="profile-h">Votre profil<\/h2>/);
      assert.match(page.html, /<label for="profile-cf-shoe-size">Pointure<\/label>/);
      assert.match(page.html, /<option value="gold">Or<\/option>/);
      const bad = await postPageForm(u.browser, page.html, ACTION, { cf_member_no: 'M-1', cf_shoe_size: '3.5' });
      assert.equal(bad.status, 400);
      assert.equal(problemOf(bad.html, 'cf_shoe_size'), 'Saisissez un nombre entier.');
      const ok = await postPageForm(u.browser, bad.html, ACTION, { cf_member_no: 'M-1', cf_shoe_size: '41' });
      assert.equal(ok.status, 303);
      const after = await openPage(u.browser, ok.res.headers.get('location')!);
      assert.match(after.html, /Votre profil a été enregistré\./);
    });

    it("refuses a post without the page's CSRF token, or from another origin: nothing changes", async () => {
      const u = await signedIn();
      const page = await openPage(u.browser);
      const [form] = formsOf(page.html, ACTION);
      const forged = await u.browser.postForm(ACTION, { ...form!, csrf: 'forged', cf_member_no: 'M-2' });
      assert.equal(forged.status, 403);
      const elsewhere = await u.browser.postForm(
        ACTION,
        { ...form!, cf_member_no: 'M-2' },
        { origin: 'https://evil.example' },
      );
      assert.equal(elsewhere.status, 403);
      assert.equal((await storage().profiles.find(u.id))!.custom_fields.member_no, 'M-1');
    });
  });
