// OAuth 2.0 Form Post Response Mode: the response's values travel in the body of a POST that the
// browser sends to the validated redirect_uri, never in a URL (no history, no Referer, no logs).
// The page holds one form whose values are escaped (AZ-18), submits itself with the one script the
// CSP lets run, and offers a button when scripts are off. Only the redirect_uri's origin may be the
// form's target (form-action), and the page is never framed, cached or referred.
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

const TEXT = {
  en: { title: 'Submit this form', noScript: 'Scripts are off: continue to the application.', submit: 'Continue' },
  fr: {
    title: 'Envoyer ce formulaire',
    noScript: 'Les scripts sont désactivés : continuez vers l’application.',
    submit: 'Continuer',
  },
};

export function formPostPage(target: string, values: Record<string, string>, language: Language): Page {
  const t = TEXT[language];
  const inputs = Object.entries(values)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return {
    status: 200,
    title: t.title,
    lang: language,
    body: `<form method="post" action="${escapeHtml(target)}" id="response">${inputs}
<noscript><p>${t.noScript}</p><button type="submit">${t.submit}</button></noscript></form>`,
    script: 'document.getElementById("response").submit();',
    formAction: formActionSource(target),
  };
}
