// The page of a magic link opened in another browser than the one that asked for it: nothing signs
// in there until the user confirms who they sign in as (a link a stranger sent would otherwise sign
// this browser into the stranger's account; a mail scanner that opens links gets only this page).
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

export interface PasswordlessConfirmInput {
  clientName: string;
  method: 'magic_link' | 'sms';
  address: string;
  token: string;
  csrf: string;
  target: string | null;
}

const OTHER_BROWSER_EN =
  'This sign-in link or code was not asked for in this browser. Go on only if you asked for it yourself.';
const OTHER_BROWSER_FR =
  'Ce lien ou ce code de connexion n’a pas été demandé depuis ce navigateur. Continuez seulement si c’est ' +
  'vous qui l’avez demandé.';

export function passwordlessConfirmPage(language: Language, p: PasswordlessConfirmInput): Page {
  const fr = language === 'fr';
  return {
    status: 200,
    title: fr ? 'Confirmer la connexion' : 'Confirm sign-in',
    lang: language,
    body: `<h1>${fr ? 'Se connecter sur cet appareil ?' : 'Sign in on this device?'}</h1>
<p>${fr ? OTHER_BROWSER_FR : OTHER_BROWSER_EN}</p>
<p>${fr ? 'Connexion à' : 'Signing in to'} ${escapeHtml(p.clientName)} ${fr ? 'en tant que' : 'as'}
<strong>${escapeHtml(p.address)}</strong>.</p>
<form method="post" action="/identity/v1/passwordless/confirm">
<input type="hidden" name="auth_type" value="${p.method}">
<input type="hidden" name="${p.method === 'sms' ? 'phone_number' : 'email'}" value="${escapeHtml(p.address)}">
<input type="hidden" name="verification_code" value="${escapeHtml(p.token)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<button type="submit">${fr ? 'Me connecter' : 'Sign in'}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

export interface PasswordlessSentInput {
  clientName: string;
  /** The interaction's handle and the form token, posted with the code. */
  interaction: string;
  csrf: string;
  method: 'magic_link' | 'sms';
  address: string;
  target: string | null;
  error?: string;
  language?: Language;
}

/** After "Email me a sign-in link" or "Text me a code" on the login page: the code form (the link works too). */
export function passwordlessSentPage(status: number, p: PasswordlessSentInput): Page {
  const error = p.error ? `<p class="error" role="alert" id="code-error">${escapeHtml(p.error)}</p>` : '';
  const field = p.method === 'magic_link' ? 'email' : 'phone_number';
  const fr = p.language === 'fr';
  const to = escapeHtml(p.address);
  const lead =
    p.method === 'magic_link'
      ? fr
        ? `Si un compte utilise ${to}, nous lui avons envoyé un lien de connexion et un code. Ouvrez le lien dans
ce navigateur, ou saisissez le code ici.`
        : `If an account uses ${to}, we sent it a sign-in link and a code. Open the link in this browser, or enter
the code here.`
      : fr
        ? `Si un compte utilise ${to}, nous lui avons envoyé un code par SMS. Saisissez-le ici.`
        : `If an account uses ${to}, we texted it a code. Enter it here.`;
  return {
    status,
    title: fr ? 'Consultez vos messages' : 'Check your messages',
    lang: fr ? 'fr' : 'en',
    body: `<h1>${fr ? 'Connexion à' : 'Sign in to'} ${escapeHtml(p.clientName)}</h1>${error}<p>${lead}</p>
<form method="post" action="/oauth/authorize/passwordless/verify" novalidate>
<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<input type="hidden" name="auth_type" value="${p.method}">
<input type="hidden" name="${field}" value="${escapeHtml(p.address)}">
<label for="verification_code">Code</label>
<input id="verification_code" name="verification_code" inputmode="numeric" autocomplete="one-time-code"
required${p.error ? ' aria-describedby="code-error"' : ''}>
<button type="submit">${fr ? 'Me connecter' : 'Sign in'}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}
