// The hosted pages of account self-service, in English and French: the email link's result, "forgot
// your password?", the reset form and its result.
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';
import { strengthMeterHtml, strengthMeterScript } from './strength-meter.js';

const TEXT = {
  en: {
    continue: 'Continue',
    confirmEmail: 'Confirm your email address',
    confirmLead: (email: string) => `Confirm that ${email} is your email address.`,
    confirmSignup: 'Confirm only if you created this account yourself: whoever created it can sign in to it.',
    confirmButton: 'Confirm my address',
    emailConfirmed: 'Email address confirmed',
    isConfirmed: 'is confirmed.',
    linkExpiredTitle: 'Link expired',
    linkExpired: 'This link has expired or was already used',
    askAgain: 'Ask for a new one from the application.',
    choosePassword: 'Choose a new password',
    newPassword: 'New password',
    hint: (min: number) => `At least ${min} characters; not your email or name, nor a common password.`,
    confirmPassword: 'Confirm the new password',
    changePassword: 'Change my password',
    changedTitle: 'Password changed',
    changed: 'Your password was changed',
    signInAgain: 'Sign in with your new password. Your other sessions were signed out.',
    forgot: 'Forgot your password?',
    forgotLead: 'Enter the email address of your account: we will send you a link and a code to choose a new password.',
    email: 'Email',
    sendLink: 'Send me a link',
    checkEmail: 'Check your email',
    sent: 'If an account has this address, a link to choose a new password is on its way. It works for a limited time.',
  },
  fr: {
    continue: 'Continuer',
    confirmEmail: 'Confirmez votre adresse e-mail',
    confirmLead: (email: string) => `Confirmez que ${email} est votre adresse e-mail.`,
    confirmSignup: 'Confirmez seulement si vous avez créé ce compte vous-même : qui l’a créé peut s’y connecter.',
    confirmButton: 'Confirmer mon adresse',
    emailConfirmed: 'Adresse e-mail confirmée',
    isConfirmed: 'est confirmée.',
    linkExpiredTitle: 'Lien expiré',
    linkExpired: 'Ce lien a expiré ou a déjà servi',
    askAgain: "Demandez-en un nouveau depuis l'application.",
    choosePassword: 'Choisissez un nouveau mot de passe',
    newPassword: 'Nouveau mot de passe',
    hint: (min: number) => `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant.`,
    confirmPassword: 'Confirmez le nouveau mot de passe',
    changePassword: 'Changer mon mot de passe',
    changedTitle: 'Mot de passe modifié',
    changed: 'Votre mot de passe a été modifié',
    signInAgain: 'Connectez-vous avec votre nouveau mot de passe. Vos autres sessions ont été fermées.',
    forgot: 'Mot de passe oublié ?',
    forgotLead:
      'Saisissez l’adresse e-mail de votre compte : nous vous enverrons un lien et un code pour choisir un ' +
      'nouveau mot de passe.',
    email: 'E-mail',
    sendLink: 'M’envoyer un lien',
    checkEmail: 'Consultez vos e-mails',
    sent:
      'Si un compte utilise cette adresse, un lien pour choisir un nouveau mot de passe est en route. Il est ' +
      'valable un temps limité.',
  },
};

const back = (language: Language, href: string | undefined) =>
  href ? `<p><a href="${escapeHtml(href)}">${TEXT[language].continue}</a></p>` : '';

/**
 * An emailed verification link opens this page; only its button (a POST with the form token) confirms
 * the address, so a mail scanner that opens links confirms nothing.
 */
export const emailConfirmPage = (
  language: Language,
  p: { email: string; token: string; csrf: string; signup: boolean; redirectUrl?: string },
): Page => {
  const t = TEXT[language];
  return {
    status: 200,
    lang: language,
    title: t.confirmEmail,
    body: `<h1>${t.confirmEmail}</h1><p>${t.confirmLead(escapeHtml(p.email))}</p>${p.signup ? `<p>${t.confirmSignup}</p>` : ''}
<form method="post" action="/identity/v1/verify-email/link">
<input type="hidden" name="token" value="${escapeHtml(p.token)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<button type="submit">${t.confirmButton}</button>
</form>`,
    formAction: formActionSource(p.redirectUrl ?? null),
  };
};

export const emailVerifiedPage = (language: Language, email: string, returnTo?: string): Page => {
  const t = TEXT[language];
  return {
    status: 200,
    lang: language,
    title: t.emailConfirmed,
    body: `<h1>${t.emailConfirmed}</h1><p>${escapeHtml(email)} ${t.isConfirmed}</p>${back(language, returnTo)}`,
  };
};

export const invalidLinkPage = (language: Language): Page => ({
  status: 400,
  lang: language,
  title: TEXT[language].linkExpiredTitle,
  body: `<h1>${TEXT[language].linkExpired}</h1><p>${TEXT[language].askAgain}</p>`,
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
  const t = TEXT[language];
  const error = p.error ? `<p class="error" role="alert" id="reset-error">${escapeHtml(p.error)}</p>` : '';
  const described = p.error ? ' aria-describedby="reset-error password-hint"' : ' aria-describedby="password-hint"';
  return {
    status,
    lang: language,
    title: t.choosePassword,
    body: `<h1>${t.choosePassword}</h1>${error}
<form method="post" action="/identity/v1/password/reset" novalidate>
<input type="hidden" name="user_id" value="${escapeHtml(p.userId)}">
<input type="hidden" name="verification_code" value="${escapeHtml(p.token)}">
<label for="password">${t.newPassword}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required
minlength="${p.minLength}"${described}>
<p class="muted" id="password-hint">${t.hint(p.minLength)}</p>
${p.clientId ? strengthMeterHtml(language, p.clientId) : ''}
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
  title: TEXT[language].changedTitle,
  body: `<h1>${TEXT[language].changed}</h1><p>${TEXT[language].signInAgain}</p>${back(language, returnTo)}`,
});

export function forgotPasswordPage(
  language: Language,
  status: number,
  p: { clientId: string; uiLocales?: string; error?: string },
): Page {
  const t = TEXT[language];
  const error = p.error ? `<p class="error" role="alert" id="forgot-error">${escapeHtml(p.error)}</p>` : '';
  return {
    status,
    lang: language,
    title: t.forgot,
    body: `<h1>${t.forgot}</h1>${error}
<p>${t.forgotLead}</p>
<form method="post" action="/identity/v1/password/forgot" novalidate>
<input type="hidden" name="client_id" value="${escapeHtml(p.clientId)}">
${p.uiLocales ? `<input type="hidden" name="ui_locales" value="${escapeHtml(p.uiLocales)}">` : ''}
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username"
required${p.error ? ' aria-describedby="forgot-error"' : ''}>
<button type="submit">${t.sendLink}</button>
</form>`,
  };
}

export const forgotPasswordSentPage = (language: Language): Page => ({
  status: 200,
  lang: language,
  title: TEXT[language].checkEmail,
  body: `<h1>${TEXT[language].checkEmail}</h1><p>${TEXT[language].sent}</p>`,
});
