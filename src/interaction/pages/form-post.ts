// OAuth 2.0 Form Post Response Mode: the response's values travel in the body of a POST that the
// browser sends to the validated redirect_uri, never in a URL (no history, no Referer, no logs).
// The page holds one form whose values are escaped (AZ-18), submits itself with the one script the
// CSP lets run, and offers a button when scripts are off. Only the redirect_uri's origin may be the
// form's target (form-action), and the page is never framed, cached or referred.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export function formPostPage(target: string, values: Record<string, string>, language: Language): Page {
  const t = textsIn(language).pages.formPost;
  const inputs = Object.entries(values).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return {
    status: 200,
    title: t.title,
    lang: language,
    body: html`<form method="post" action="${target}" id="response">${inputs}
<noscript><p>${t.noScript}</p><button type="submit">${t.submit}</button></noscript></form>`,
    script: 'document.getElementById("response").submit();',
    formAction: formActionSource(target),
  };
}
