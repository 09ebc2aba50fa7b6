// The pages of a double opt-in consent's emailed link: the link opens a page whose button (a POST)
// grants the consent, so a mail scanner that opens links grants nothing.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';

import { CONSENT_CONFIRM_PATH } from '../../accounts/consent-changes.js';

const text = (language: Language) => textsIn(language).pages.consentConfirm;

export const consentConfirmPage = (language: Language, p: { title: string; token: string }): Page => {
  const t = text(language);
  return {
    status: 200,
    lang: language,
    title: t.title,
    body: html`<h1>${t.title}</h1><p>${t.lead(p.title)}</p>
<form method="post" action="${CONSENT_CONFIRM_PATH}">
<input type="hidden" name="token" value="${p.token}">
<button type="submit">${t.button}</button>
</form>`,
  };
};

export const consentConfirmedPage = (language: Language, title: string): Page => {
  const t = text(language);
  return {
    status: 200,
    lang: language,
    title: t.doneTitle,
    body: html`<h1>${t.doneTitle}</h1><p>${t.done(title)}</p>`,
  };
};
