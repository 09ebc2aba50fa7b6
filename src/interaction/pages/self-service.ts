// The hosted pages of account self-service, in English and French: the email link's result, "forgot
// your password?", the reset form and its result.
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { strengthMeterHtml, strengthMeterScript } from './strength-meter.js';

const t = (language: Language, en: string, fr: string) => (language === 'fr' ? fr : en);

const back = (language: Language, href: string | undefined) =>
  href ? `<p><a href="${escapeHtml(href)}">${t(language, 'Continue', 'Continuer')}</a></p>` : '';

export const emailVerifiedPage = (language: Language, email: string, returnTo?: string): Page => ({
  status: 200,
  lang: language,
  title: t(language, 'Email address confirmed', 'Adresse e-mail confirmée'),
  body: `<h1>${t(language, 'Email address confirmed', 'Adresse e-mail confirmée')}</h1><p>${escapeHtml(email)} ${t(language, 'is confirmed.', 'est confirmée.')}</p>${back(language, returnTo)}`,
});

export const invalidLinkPage = (language: Language): Page => ({
  status: 400,
  lang: language,
  title: t(language, 'Link expired', 'Lien expiré'),
  body: `<h1>${t(language, 'This link has expired or was already used', 'Ce lien a expiré ou a déjà servi')}</h1><p>${t(language, 'Ask for a new one from the application.', "Demandez-en un nouveau depuis l'application.")}</p>`,
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
  const error = p.error ? `<p class="error" role="alert" id="reset-error">${escapeHtml(p.error)}</p>` : '';
  const described = p.error ? ' aria-describedby="reset-error password-hint"' : ' aria-describedby="password-hint"';
  return {
    status,
    lang: language,
    title: t(language, 'Choose a new password', 'Choisissez un nouveau mot de passe'),
    body: `<h1>${t(language, 'Choose a new password', 'Choisissez un nouveau mot de passe')}</h1>${error}
<form method="post" action="/identity/v1/password/reset" novalidate>
<input type="hidden" name="user_id" value="${escapeHtml(p.userId)}">
<input type="hidden" name="verification_code" value="${escapeHtml(p.token)}">
<label for="password">${t(language, 'New password', 'Nouveau mot de passe')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${p.minLength}"${described}>
<p class="muted" id="password-hint">${t(language, `At least ${p.minLength} characters; not your email or name, nor a common password.`, `Au moins ${p.minLength} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant.`)}</p>
${p.clientId ? strengthMeterHtml(language, p.clientId) : ''}
<label for="password_confirmation">${t(language, 'Confirm the new password', 'Confirmez le nouveau mot de passe')}</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required>
<button type="submit">${t(language, 'Change my password', 'Changer mon mot de passe')}</button>
</form>`,
    ...(p.clientId ? { script: strengthMeterScript, connectSelf: true } : {}),
  };
}

export const passwordResetDonePage = (language: Language, returnTo?: string): Page => ({
  status: 200,
  lang: language,
  title: t(language, 'Password changed', 'Mot de passe modifié'),
  body: `<h1>${t(language, 'Your password was changed', 'Votre mot de passe a été modifié')}</h1><p>${t(language, 'Sign in with your new password. Your other sessions were signed out.', 'Connectez-vous avec votre nouveau mot de passe. Vos autres sessions ont été fermées.')}</p>${back(language, returnTo)}`,
});

export function forgotPasswordPage(
  language: Language,
  status: number,
  p: { clientId: string; uiLocales?: string; error?: string },
): Page {
  const error = p.error ? `<p class="error" role="alert" id="forgot-error">${escapeHtml(p.error)}</p>` : '';
  return {
    status,
    lang: language,
    title: t(language, 'Forgot your password?', 'Mot de passe oublié ?'),
    body: `<h1>${t(language, 'Forgot your password?', 'Mot de passe oublié ?')}</h1>${error}
<p>${t(language, 'Enter the email address of your account: we will send you a link and a code to choose a new password.', 'Saisissez l’adresse e-mail de votre compte : nous vous enverrons un lien et un code pour choisir un nouveau mot de passe.')}</p>
<form method="post" action="/identity/v1/password/forgot" novalidate>
<input type="hidden" name="client_id" value="${escapeHtml(p.clientId)}">
${p.uiLocales ? `<input type="hidden" name="ui_locales" value="${escapeHtml(p.uiLocales)}">` : ''}
<label for="email">${t(language, 'Email', 'E-mail')}</label>
<input id="email" name="email" type="email" autocomplete="username" required${p.error ? ' aria-describedby="forgot-error"' : ''}>
<button type="submit">${t(language, 'Send me a link', 'M’envoyer un lien')}</button>
</form>`,
  };
}

export const forgotPasswordSentPage = (language: Language): Page => ({
  status: 200,
  lang: language,
  title: t(language, 'Check your email', 'Consultez vos e-mails'),
  body: `<h1>${t(language, 'Check your email', 'Consultez vos e-mails')}</h1><p>${t(language, 'If an account has this address, a link to choose a new password is on its way. It works for a limited time.', 'Si un compte utilise cette adresse, un lien pour choisir un nouveau mot de passe est en route. Il est valable un temps limité.')}</p>`,
});
