// Ward's own page for an authorization request it cannot answer to the client (an unknown client, an
// untrusted redirect_uri, ...), in English or French: the message from the error catalog.
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';

const TEXT = {
  en: { title: 'Authorization error', heading: 'This request cannot be completed', error: 'Error:' },
  fr: { title: "Erreur d'autorisation", heading: 'Cette demande ne peut pas aboutir', error: 'Erreur :' },
};

export function authorizeErrorPage(status: number, language: Language, message: string, error: string): Page {
  const t = TEXT[language];
  return {
    status,
    title: t.title,
    lang: language,
    body: `<h1>${t.heading}</h1><p class="error" role="alert">${escapeHtml(message)}</p><p
class="muted">${t.error} ${escapeHtml(error)}</p>`,
  };
}
