// The consent page of a third-party client (interaction/consent.ts): who asks (its name, logo and
// links when it has them), each scope it asks in plain words, Allow or Deny, both posted to
// /oauth/authorize/consent with the interaction at its `consent` step.
import type { Language } from '../../errors/ward-error.js';
import { html, joinHtml, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface ConsentPageInput {
  client: {
    name: string;
    logo_uri: string | null;
    client_uri: string | null;
    policy_uri: string | null;
    tos_uri: string | null;
  };
  scopes: string[];
  /** Who is signed in (email, phone number or id). */
  who: string;
  interaction: string;
  csrf: string;
  target: string | null;
  language?: Language;
  /** A device's approval (RFC 8628): the heading asks whether to connect the device. */
  device?: boolean;
}

export function consentPage(p: ConsentPageInput): Page {
  const t = textsIn(p.language ?? 'en').consent;
  const d = textsIn(p.language ?? 'en').device;
  const { client } = p;
  const hidden = html`<input type="hidden" name="interaction" value="${p.interaction}"><input type="hidden" name="csrf" value="${p.csrf}">`;
  const logo = client.logo_uri ? html`<img src="${client.logo_uri}" alt="" width="64" height="64">` : null;
  const links = (
    [
      [client.client_uri, t.home],
      [client.policy_uri, t.privacy],
      [client.tos_uri, t.terms],
    ] as const
  )
    .filter((l): l is readonly [string, string] => !!l[0])
    .map(([href, label]) => html`<a href="${href}" rel="noopener noreferrer" target="_blank">${label}</a>`);
  const scopes = p.scopes.map((s) => html`<li data-scope="${s}">${t.scopes[s] ?? s}</li>`);
  return {
    status: 200,
    title: t.title,
    lang: p.language ?? 'en',
    images: client.logo_uri ? [client.logo_uri] : undefined,
    body: html`${logo}<h1>${p.device ? d.approveHeading(client.name) : t.heading(client.name)}</h1><p>${t.signedInAs(p.who)}</p>
<p>${p.device ? d.approveLead(client.name) : t.lead(client.name)}</p><ul class="scopes">${scopes}</ul>
${links.length ? html`<p class="links">${joinHtml(links, html` · `)}</p>` : null}<p>${t.note}</p>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="allow">${t.allow}</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="deny">${t.deny}</button></form>`,
    formAction: formActionSource(p.target),
  };
}
