// The hosted pages of account self-service, in the request's language: the email link's result, "forgot
// your password?", the reset form and its result.
import type { CaptchaWidget } from '../../captcha/widget.js';
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { captchaBox, captchaScript } from './captcha-widget.js';
import { formActionSource } from './login.js';
import { strengthMeterHtml, strengthMeterScript } from './strength-meter.js';

const text = (language: Language) => textsIn(language).pages.selfService;

const back = (language: Language, href: string | undefined) =>
  href && html`<p><a href="${href}">${text(language).continue}</a></p>`;

/**
 * An emailed verification link opens this page; only its button (a POST with the form token) confirms
 * the address, so a mail scanner that opens links confirms nothing.
 */
export const emailConfirmPage = (
  language: Language,
  p: { email: string; token: string; csrf: string; signup: boolean; redirectUrl?: string },
): Page => {
  const t = text(language);
  return {
    status: 200,
    lang: language,
    title: t.confirmEmail,
    body: html`<h1>${t.confirmEmail}</h1><p>${t.confirmLead(p.email)}</p>${p.signup && html`<p>${t.confirmSignup}</p>`}
<form method="post" action="/identity/v1/verify-email/link">
<input type="hidden" name="token" value="${p.token}">
<input type="hidden" name="csrf" value="${p.csrf}">
<button type="submit">${t.confirmButton}</button>
</form>`,
    formAction: formActionSource(p.redirectUrl ?? null),
  };
};

export const emailVerifiedPage = (language: Language, email: string, returnTo?: string): Page => {
  const t = text(language);
  return {
    status: 200,
    lang: language,
    title: t.emailConfirmed,
    body: html`<h1>${t.emailConfirmed}</h1><p>${t.isConfirmed(email)}</p>${back(language, returnTo)}`,
  };
};

export const invalidLinkPage = (language: Language): Page => ({
  status: 400,
  lang: language,
  title: text(language).linkExpiredTitle,
  body: html`<h1>${text(language).linkExpired}</h1><p>${text(language).askAgain}</p>`,
});

export interface ResetFormInput {
  userId: string;
  token: string;
  minLength: number;
  /** The client the reset was asked for: the strength meter asks Ward in its name (none: no meter). */
  clientId?: string | null;
  error?: string;
}

export function resetFormPage(language: Language, status: number, p: ResetFormInput): Page {
  const t = text(language);
  const error = p.error && html`<p class="error" role="alert" id="reset-error">${p.error}</p>`;
  const described = p.error ? 'reset-error password-hint' : 'password-hint';
  return {
    status,
    lang: language,
    title: t.choosePassword,
    body: html`<h1>${t.choosePassword}</h1>${error}
<form method="post" action="/identity/v1/password/reset" novalidate>
<input type="hidden" name="user_id" value="${p.userId}">
<input type="hidden" name="verification_code" value="${p.token}">
<label for="password">${t.newPassword}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required
minlength="${p.minLength}" aria-describedby="${described}">
<p class="muted" id="password-hint">${t.hint(p.minLength)}</p>
${p.clientId && strengthMeterHtml(language, p.clientId)}
<label for="password_confirmation">${t.confirmPassword}</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required>
<button type="submit">${t.changePassword}</button>
</form>`,
    ...(p.clientId ? { script: strengthMeterScript, connectSelf: true } : {}),
  };
}

export const passwordResetDonePage = (language: Language, returnTo?: string): Page => ({
  status: 200,
  lang: language,
  title: text(language).changedTitle,
  body: html`<h1>${text(language).changed}</h1><p>${text(language).signInAgain}</p>${back(language, returnTo)}`,
});

export function forgotPasswordPage(
  language: Language,
  status: number,
  p: { clientId: string; uiLocales?: string; error?: string; captcha?: CaptchaWidget | null },
): Page {
  const t = text(language);
  const error = p.error && html`<p class="error" role="alert" id="forgot-error">${p.error}</p>`;
  return {
    status,
    lang: language,
    title: t.forgot,
    body: html`<h1>${t.forgot}</h1>${error}
<p>${t.forgotLead}</p>
<form method="post" action="/identity/v1/password/forgot" novalidate>
<input type="hidden" name="client_id" value="${p.clientId}">
${p.uiLocales && html`<input type="hidden" name="ui_locales" value="${p.uiLocales}">`}
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username"
required${p.error && html` aria-describedby="forgot-error"`}>
${captchaBox(p.captcha)}
<button type="submit">${t.sendLink}</button>
</form>`,
    ...captchaScript([p.captcha]),
  };
}

export const forgotPasswordSentPage = (language: Language): Page => ({
  status: 200,
  lang: language,
  title: text(language).checkEmail,
  body: html`<h1>${text(language).checkEmail}</h1><p>${text(language).sent}</p>`,
});
