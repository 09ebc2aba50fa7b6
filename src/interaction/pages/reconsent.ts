// The consents to accept again at sign-in (interaction/reconsent.ts): each updated consent's new title
// and description in the page's language, a checkbox each (a required one marked), Continue (posted to
// /oauth/authorize/reconsent) and Cancel (posted to /oauth/authorize/consent, which answers the client
// access_denied, as the other hosted pages' Cancel).
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface ReconsentPageInput {
  clientName: string;
  /** Who is signed in (email, phone number or id). */
  who: string;
  /** The consents to answer: their current version's text in the page's language. */
  consents: ReadonlyArray<{ key: string; title: string; description: string; required: boolean }>;
  /** The boxes checked when the page is shown again. */
  checked: ReadonlySet<string>;
  /** The titles of the required consents left unchecked (the sign-in cannot go on). */
  refused?: readonly string[];
  interaction: string;
  csrf: string;
  target: string | null;
  language: Language;
}

export function reconsentPage(status: number, p: ReconsentPageInput): Page {
  const t = textsIn(p.language).reconsent;
  const hidden = html`<input type="hidden" name="interaction" value="${p.interaction}"><input type="hidden" name="csrf" value="${p.csrf}">`;
  const items = p.consents.map((c) => {
    const id = `consent_${c.key}`;
    const mark = c.required ? t.required : t.optional;
    return html`<div class="consent"><p><input type="checkbox" id="${id}" name="${id}" value="1"${p.checked.has(c.key) && html` checked`}>
<label for="${id}" class="inline">${c.title} ${mark}</label></p>${c.description && html`<p class="muted">${c.description}</p>`}</div>`;
  });
  const refused =
    p.refused?.length &&
    html`<p class="error" role="alert" id="reconsent-error">${t.mustAccept(p.refused.join(', '))}</p>`;
  return {
    status,
    title: t.title,
    lang: p.language,
    body: html`<h1>${t.heading(p.clientName)}</h1>${refused}<p>${t.signedInAs(p.who)}</p><p>${t.lead}</p>
<form method="post" action="/oauth/authorize/reconsent" novalidate>${hidden}
${items}
<p class="muted">${t.note}</p>
<button type="submit" name="decision" value="accept">${t.continue}</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" class="secondary" name="decision" value="deny">${t.cancel}</button></form>`,
    formAction: formActionSource(p.target),
  };
}
