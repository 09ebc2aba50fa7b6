// The pages of a sign-in that cannot go on, in the request's language (its ui_locales when it is
// still known, else Accept-Language).
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';

/** A hosted form whose interaction is gone, finished, foreign or bound to another browser. */
export function expiredFormPage(language: Language): Page {
  const t = textsIn(language).pages.expired;
  return { status: 403, title: t.title, lang: language, body: html`<h1>${t.formHeading}</h1><p>${t.again}</p>` };
}

/** A provider's answer (or a link) that does not belong to a sign-in started in this browser. */
export function expiredSocialPage(language: Language): Page {
  const t = textsIn(language).pages.expired;
  return { status: 400, title: t.title, lang: language, body: html`<h1>${t.socialHeading}</h1><p>${t.again}</p>` };
}
