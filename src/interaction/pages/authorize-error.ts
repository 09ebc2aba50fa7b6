// Ward's own page for an authorization request it cannot answer to the client (an unknown client, an
// untrusted redirect_uri, ...), in the request's language: the message from the error catalog.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';

export function authorizeErrorPage(status: number, language: Language, message: string, error: string): Page {
  const t = textsIn(language).pages.authorizeError;
  return {
    status,
    title: t.title,
    lang: language,
    body: html`<h1>${t.heading}</h1><p class="error" role="alert">${message}</p><p
class="muted">${t.error} ${error}</p>`,
  };
}
