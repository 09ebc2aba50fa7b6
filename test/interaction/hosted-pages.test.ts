// Every hosted page function, rendered directly: a hostile value in every string input adds no tag
// and no attribute (the html template escapes it), and each page speaks German and Spanish from the
// language files (src/texts/<lang>/pages.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomFieldSetting } from '../../src/config/types.js';
import type { Language } from '../../src/errors/ward-error.js';
import { accountPage, signedOutPage as accountSignedOutPage } from '../../src/interaction/pages/account.js';
import { authorizeErrorPage } from '../../src/interaction/pages/authorize-error.js';
import { completeProfilePage } from '../../src/interaction/pages/complete-profile.js';
import { confirmPage, signInConfirmPage } from '../../src/interaction/pages/confirm.js';
import { expiredFormPage, expiredSocialPage } from '../../src/interaction/pages/expired.js';
import { formPostPage } from '../../src/interaction/pages/form-post.js';
import { linkPage } from '../../src/interaction/pages/link.js';
import { loginPage } from '../../src/interaction/pages/login.js';
import {
  logoutConfirmPage,
  logoutErrorPage,
  signedOutPage,
  stillSignedInPage,
} from '../../src/interaction/pages/logout.js';
import { passwordlessConfirmPage, passwordlessSentPage } from '../../src/interaction/pages/passwordless.js';
import { secondFactorPage } from '../../src/interaction/pages/second-factor.js';
import {
  emailConfirmPage,
  emailVerifiedPage,
  forgotPasswordPage,
  forgotPasswordSentPage,
  invalidLinkPage,
  passwordResetDonePage,
  resetFormPage,
} from '../../src/interaction/pages/self-service.js';
import { signupPage, signupSentPage } from '../../src/interaction/pages/signup.js';
import { escapeHtml, type Page, renderPage } from '../../src/lib/html.js';
import { type Texts, textsIn } from '../../src/texts/texts.js';

type PageTexts = Texts['pages'];

const HOSTILE = `"'><x-evil onload=alert(1)>&amp;</main><script>alert(2)</script>`;
const TARGET = 'https://app.example/cb';
/** German and Spanish before the Language type names them (a cast, harmless once it does). */
const asLanguage = (l: string) => l as Language;

const customFields = (v: string): CustomFieldSetting[] =>
  [
    { name: 'loyalty_id', data_type: 'string', required: true },
    { name: 'opt_in', data_type: 'boolean', required: false },
    { name: 'plan', data_type: 'list', values: ['gold', v], required: false },
    { name: 'age', data_type: 'integer', required: false },
    { name: 'phone', data_type: 'phone', required: false },
  ] as unknown as CustomFieldSetting[];

/**
 * Each page function with `v` in every string input it has; `text` picks a text the page shows
 * from its language's texts (the language test looks for it).
 */
const PAGES: Array<{ name: string; render: (lang: Language, v: string) => Page; text: (t: PageTexts) => string }> = [
  {
    name: 'login',
    render: (language, v) =>
      loginPage(200, {
        clientName: v,
        interaction: v,
        csrf: v,
        email: v,
        error: v,
        target: TARGET,
        social: [{ label: v, href: v }],
        passkey: { options: { challenge: v } },
        forgotHref: v,
        signupHref: v,
        passwordless: { magicLink: true, sms: true },
        language,
      }),
    text: (t) => t.login.orPasswordless,
  },
  {
    name: 'signup',
    render: (language, v) =>
      signupPage(400, {
        clientId: v,
        clientName: v,
        interaction: v,
        csrf: v,
        language,
        customFields: customFields(v),
        minLength: 8,
        values: { email: v, given_name: v, family_name: v, cf_loyalty_id: v, cf_plan: v },
        error: v,
        loginHref: v,
        target: TARGET,
      }),
    text: (t) => t.signup.haveAccount,
  },
  {
    name: 'signup strength meter',
    render: (language, v) =>
      signupPage(200, {
        clientId: v,
        clientName: v,
        interaction: v,
        csrf: v,
        language,
        customFields: [],
        minLength: 8,
        values: {},
        loginHref: v,
        target: null,
      }),
    text: (t) => t.strength.label,
  },
  { name: 'signup sent', render: (l, v) => signupSentPage(l, v, v), text: (t) => t.signup.sentTitle },
  {
    name: 'account',
    render: (language, v) =>
      accountPage(200, {
        language,
        csrf: v,
        user: { email: v, emailVerified: true, phone: v, phoneVerified: false, hasPassword: true },
        pending: { email: v, phone: v },
        notice: 'email_sent',
        error: { text: v, at: 'password' },
        values: { email: v, phone_number: v },
        minLength: 10,
        back: { clientId: v, name: v, href: v },
      }),
    text: (t) => t.account.changePassword,
  },
  {
    name: 'account step-up',
    render: (language, v) =>
      accountPage(200, {
        language,
        csrf: v,
        user: { email: v, emailVerified: true, phone: v, phoneVerified: true, hasPassword: true },
        pending: { email: null, phone: v },
        error: { text: v, at: 'step_up' },
        stepUp: { factors: [{ channel: 'email', to: v }], started: { stepUp: v, challengeId: v, channel: 'sms' } },
        minLength: 10,
      }),
    text: (t) => t.account.stepUpHeading,
  },
  { name: 'account signed out', render: (l) => accountSignedOutPage(l), text: (t) => t.account.signedOutLead },
  {
    name: 'authorize error',
    render: (l, v) => authorizeErrorPage(400, l, v, v),
    text: (t) => t.authorizeError.heading,
  },
  {
    name: 'complete profile',
    render: (language, v) =>
      completeProfilePage(400, {
        language,
        signupToken: v,
        csrf: v,
        clientName: v,
        providerLabel: v,
        given: { name: v, email: v, emailVerified: false },
        askEmail: true,
        fields: customFields(v),
        consents: [
          { key: 'terms', title: v, description: v, required: true },
          { key: 'news', title: v, description: '', required: false },
        ],
        others: [v],
        values: { email: v, [v]: v, 'custom_fields.loyalty_id': v, 'consents.news': 'true' },
        errors: { email: v, [v]: v, 'consents.terms': v },
        target: TARGET,
      }),
    text: (t) => t.completeProfile.problems,
  },
  {
    name: 'messenger confirm',
    render: (language, v) => confirmPage({ clientName: v, interaction: v, csrf: v, who: v, target: TARGET, language }),
    text: (t) => t.messengerConfirm.allow,
  },
  {
    name: 'sign-in confirm',
    render: (language, v) =>
      signInConfirmPage({ clientName: v, interaction: v, csrf: v, who: v, target: TARGET, language }),
    text: (t) => t.signInConfirm.startedElsewhere,
  },
  { name: 'expired form', render: (l) => expiredFormPage(l), text: (t) => t.expired.formHeading },
  { name: 'expired social', render: (l) => expiredSocialPage(l), text: (t) => t.expired.socialHeading },
  {
    name: 'form post',
    render: (l, v) => formPostPage(`${TARGET}?x=${encodeURIComponent(v)}`, { code: v, [v]: v }, l),
    text: (t) => t.formPost.noScript,
  },
  {
    name: 'link',
    render: (language, v) =>
      linkPage(401, {
        linkToken: v,
        csrf: v,
        email: v,
        providerLabel: v,
        target: TARGET,
        error: 'accountLocked',
        language,
      }),
    text: (t) => t.signIn.accountLocked,
  },
  {
    name: 'logout confirm',
    render: (language, v) =>
      logoutConfirmPage({ language, clientName: v, who: v, token: v, carried: { state: v, [v]: v }, target: TARGET }),
    text: (t) => t.logout.staySignedIn,
  },
  { name: 'signed out', render: (l, v) => signedOutPage(l, v), text: (t) => t.logout.signedOut },
  { name: 'still signed in', render: (l) => stillSignedInPage(l), text: (t) => t.logout.still },
  { name: 'logout error', render: (l, v) => logoutErrorPage(400, l, v, v), text: (t) => t.logout.errorHeading },
  {
    name: 'passwordless confirm',
    render: (l, v) =>
      passwordlessConfirmPage(l, {
        clientName: v,
        method: 'magic_link',
        address: v,
        token: v,
        csrf: v,
        target: TARGET,
      }),
    text: (t) => t.passwordless.otherBrowser,
  },
  {
    name: 'passwordless sent',
    render: (language, v) =>
      passwordlessSentPage(400, {
        clientName: v,
        interaction: v,
        csrf: v,
        method: 'sms',
        address: v,
        target: TARGET,
        error: v,
        language,
      }),
    text: (t) => t.passwordless.sentTitle,
  },
  {
    name: 'second factor',
    render: (language, v) =>
      secondFactorPage(400, {
        clientName: v,
        interaction: v,
        csrf: v,
        stepUp: v,
        challengeId: v,
        channel: 'email',
        channels: ['email', 'sms'],
        target: TARGET,
        error: v,
        language,
      }),
    text: (t) => t.secondFactor.other('sms'),
  },
  {
    name: 'second factor notice',
    render: (language, v) =>
      secondFactorPage(200, {
        clientName: v,
        interaction: v,
        csrf: v,
        stepUp: v,
        challengeId: v,
        channel: 'sms',
        channels: ['sms'],
        target: null,
        notice: v,
        language,
      }),
    text: (t) => t.secondFactor.heading,
  },
  {
    name: 'email confirm',
    render: (l, v) => emailConfirmPage(l, { email: v, token: v, csrf: v, signup: true, redirectUrl: TARGET }),
    text: (t) => t.selfService.confirmSignup,
  },
  { name: 'email verified', render: (l, v) => emailVerifiedPage(l, v, v), text: (t) => t.selfService.emailConfirmed },
  { name: 'invalid link', render: (l) => invalidLinkPage(l), text: (t) => t.selfService.askAgain },
  {
    name: 'reset form',
    render: (l, v) => resetFormPage(l, 400, { userId: v, token: v, minLength: 8, clientId: v, error: v }),
    text: (t) => t.selfService.confirmPassword,
  },
  { name: 'reset done', render: (l, v) => passwordResetDonePage(l, v), text: (t) => t.selfService.signInAgain },
  {
    name: 'forgot password',
    render: (l, v) => forgotPasswordPage(l, 400, { clientId: v, uiLocales: v, error: v }),
    text: (t) => t.selfService.forgotLead,
  },
  { name: 'forgot password sent', render: (l) => forgotPasswordSentPage(l), text: (t) => t.selfService.sent },
];

/**
 * The tags of a document and the attribute names of each, in order. Quoted attribute values are
 * dropped first: an escaped value holds no quote, so whatever it says cannot count as an attribute.
 */
function structure(doc: string): string[] {
  return [...doc.matchAll(/<(\/?[a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => {
    const attrs = [...m[2]!.replace(/"[^"]*"/g, '""').matchAll(/([\w-]+)(?==|\s|$)/g)].map((a) => a[1]);
    return `${m[1]} ${attrs.join(',')}`;
  });
}

/** The inline script, kept out of the comparison: it carries values as JSON (jsonInScript), not as HTML. */
const withoutScript = (doc: string) => doc.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

describe('the hosted pages, rendered with a hostile value in every string input', () => {
  for (const page of PAGES)
    it(`${page.name}: the value adds no tag and no attribute, and shows escaped`, () => {
      for (const language of ['en', 'fr'].map(asLanguage)) {
        const plain = withoutScript(renderPage(page.render(language, 'plain-value')).html);
        const hostile = withoutScript(renderPage(page.render(language, HOSTILE)).html);
        assert.deepEqual(structure(hostile), structure(plain));
        assert.ok(!hostile.includes('<x-evil'), 'no tag of the value');
        assert.ok(!hostile.includes('alert(2)</script>'), 'no script of the value');
        if (plain.includes('plain-value')) assert.ok(hostile.includes(escapeHtml(HOSTILE)), 'the value, escaped');
      }
    });

  it('keeps the passkey options inside the script as JSON that cannot end the script element', () => {
    const doc = renderPage(PAGES[0]!.render('en', HOSTILE)).html;
    const scripts = [...doc.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0]![1]!.includes('\\u003cx-evil'));
  });
});

describe('the hosted pages in German and Spanish', () => {
  const en = textsIn('en').pages;
  for (const language of ['de', 'es'] as const) {
    const t = textsIn(language).pages;
    for (const page of PAGES)
      it(`${page.name} in ${language}: its ${language} text and lang`, () => {
        const doc = renderPage(page.render(asLanguage(language), 'v')).html;
        assert.notEqual(page.text(t), page.text(en), 'the text is translated');
        assert.ok(doc.includes(escapeHtml(page.text(t))), `the page shows: ${page.text(t)}`);
        assert.match(doc, new RegExp(`<html lang="${language}">`));
        assert.ok(!doc.includes(escapeHtml(page.text(en))), 'and not the English one');
      });
  }
});
