import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

export interface MfaPageInput {
  clientName: string;
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  stepUp: string;
  challengeId: string;
  channel: 'email' | 'sms';
  channels: Array<'email' | 'sms'>;
  target: string | null;
  notice?: string;
  error?: string;
  language?: Language;
}

const TEXT = {
  en: {
    title: 'Verification code',
    heading: 'Verify it is you',
    lead: (where: 'email' | 'sms', client: string) =>
      `We sent a code to ${where === 'email' ? 'your email address' : 'your phone'} to sign in to ${client}.`,
    code: 'Verification code',
    verify: 'Verify',
    resend: 'Send a new code',
    other: (c: 'email' | 'sms') => `Send the code by ${c === 'email' ? 'email' : 'SMS'} instead`,
  },
  fr: {
    title: 'Code de vérification',
    heading: "Confirmez qu'il s'agit bien de vous",
    lead: (where: 'email' | 'sms', client: string) =>
      `Nous avons envoyé un code ${where === 'email' ? 'à votre adresse e-mail' : 'à votre téléphone'} pour vous
connecter à ${client}.`,
    code: 'Code de vérification',
    verify: 'Vérifier',
    resend: 'Envoyer un nouveau code',
    other: (c: 'email' | 'sms') => `Recevoir plutôt le code par ${c === 'email' ? 'e-mail' : 'SMS'}`,
  },
};

/** The hosted second-factor page: the code sent to a registered factor, resend, another factor. */
export function secondFactorPage(status: number, p: MfaPageInput): Page {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const common = hidden('interaction', p.interaction) + hidden('csrf', p.csrf) + hidden('step_up', p.stepUp);
  const t = TEXT[p.language ?? 'en'];
  const other = p.channels.filter((c) => c !== p.channel);
  const message = p.error
    ? `<p class="error" role="alert" id="mfa-error">${escapeHtml(p.error)}</p>`
    : p.notice
      ? `<p role="status">${escapeHtml(p.notice)}</p>`
      : '';
  return {
    status,
    title: t.title,
    lang: p.language ?? 'en',
    body: `<h1>${t.heading}</h1><p>${escapeHtml(t.lead(p.channel, p.clientName))}</p>${message}
<form method="post" action="/oauth/authorize/mfa"
novalidate>${common}${hidden('challenge_id', p.challengeId)}${hidden('auth_type', p.channel)}
<label for="code">${t.code}</label>
<input id="code" name="verification_code" inputmode="numeric" autocomplete="one-time-code"
required${p.error ? ' aria-describedby="mfa-error"' : ''}>
<button type="submit" name="action" value="verify">${t.verify}</button>
</form>
<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', p.channel)}
<button type="submit" name="action" value="resend">${t.resend}</button></form>
${other
  .map(
    (c) => `<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}
<button type="submit" name="action" value="resend">${t.other(c)}</button></form>`,
  )
  .join('')}`,
    formAction: formActionSource(p.target),
  };
}
