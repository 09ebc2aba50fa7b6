// The page a lite profile's claim link opens (self-service/lite-claim.ts), in the request's language:
// the address it was sent to and the password typed at signup, posted with the page's CSRF token.
// Nothing of the profile is shown, before or after.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

const text = (language: Language) => textsIn(language).pages.liteClaim;

export function liteClaimPage(
  language: Language,
  status: number,
  p: { email: string; token: string; csrf: string; wrongPassword?: boolean; redirectUrl?: string },
): Page {
  const t = text(language);
  const error = p.wrongPassword && html`<p class="error" role="alert" id="claim-error">${t.wrongPassword}</p>`;
  const described = p.wrongPassword && html` aria-describedby="claim-error"`;
  return {
    status,
    lang: language,
    title: t.title,
    body: html`<h1>${t.title}</h1>${error}<p>${t.lead(p.email)}</p>
<form method="post" action="/identity/v1/signup/claim" novalidate>
<input type="hidden" name="token" value="${p.token}">
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">${t.submit}</button>
</form>
<p class="muted">${t.notYou}</p>`,
    formAction: formActionSource(p.redirectUrl ?? null),
  };
}

export const liteClaimDonePage = (language: Language, email: string, returnTo?: string): Page => {
  const t = text(language);
  return {
    status: 200,
    lang: language,
    title: t.doneTitle,
    body: html`<h1>${t.doneTitle}</h1><p>${t.done(email)}</p>${returnTo && html`<p><a href="${returnTo}">${textsIn(language).pages.selfService.continue}</a></p>`}`,
  };
};
