// The HTML of the Consents pages (static/consent-texts.js, consents.js and consent.js fill and drive
// them): the account's consent definitions (GET /api/v1/consent-definitions) with New definition; one
// definition's page: its details, Archive / Reactivate, Make required / optional, Publish a new version
// (its title and description per language) and every version's texts; and, on a user's page, their
// consents and the history of them (static/user-consents.js). Changes need manage:settings (data-perm).
// The bounds of the fields (key and language patterns, title and description lengths) are read from
// the settings schema (config/schema/consents.ts), where they are written once.
import { CONSENT_TYPES, ConsentDefinition } from '../config/schema/consents.js';
import { html, type SafeHtml } from '../lib/html.js';
import { LANGUAGES } from '../texts/language.js';

interface Rule {
  pattern?: string;
  maxLength?: number;
  'x-allowed'?: string;
}
const KEY = ConsentDefinition.properties.key as Rule;
const TEXT = ConsentDefinition.properties.versions.items.properties.texts.items.properties;
const LANGUAGE = TEXT.language as Rule;

/** What each consent type means, as the type select and the list say it. */
const TYPE_LABEL: Record<(typeof CONSENT_TYPES)[number], string> = {
  'opt-in': 'Opt-in (the user checks it)',
  'opt-out': 'Opt-out (given unless the user withdraws it)',
  'double-opt-in': 'Double opt-in (confirmed by a link mailed to the user)',
};

const th = (label: string | SafeHtml) => html`<th scope="col">${label}</th>`;
const table = (id: string, caption: string, columns: string[], actions = false) =>
  html`<table id="${id}"><caption>${caption}</caption><thead><tr>${columns.map(th)}${
    actions ? th(html`<span class="sr">Actions</span>`) : html``
  }</tr></thead><tbody></tbody></table>`;

/**
 * The texts of a version, one fieldset per language (consent-texts.js adds and removes them): the
 * rules the script checks ride on the container, the languages Ward speaks are offered in a datalist.
 */
const textsEditor = (p: string, hint: string) => html`<fieldset id="${p}-texts-set" aria-describedby="${p}-texts-hint">
<legend>Title and description per language</legend><p class="hint" id="${p}-texts-hint">${hint}</p>
<div class="consent-texts" id="${p}-texts" data-language-pattern="${LANGUAGE.pattern!}"
data-language-allowed="${LANGUAGE['x-allowed']!}" data-title-max="${(TEXT.title as Rule).maxLength!}"
data-description-max="${(TEXT.description as Rule).maxLength!}"></div>
<button type="button" class="secondary" id="${p}-add-text">Add a language</button></fieldset>`;

const LANGUAGE_LIST = html`<datalist id="consent-languages">${LANGUAGES.map(
  (l) => html`<option value="${l}"></option>`,
)}</datalist>`;

const NEW_DEFINITION = html`<details id="new-consent" data-perm="manage:settings"><summary>New consent definition</summary>
<form id="nc-form" novalidate>
<div class="field"><label for="nc-key">Key</label><input id="nc-key" name="key" type="text" maxlength="64"
autocomplete="off" spellcheck="false" required data-pattern="${KEY.pattern!}" data-allowed="${KEY['x-allowed']!}"
aria-describedby="nc-key-hint">
<p class="hint" id="nc-key-hint">The name under the user's consents (the Core SDK's key), such as newsletter;
${KEY['x-allowed']!}. It cannot be changed later.</p></div>
<div class="field"><label for="nc-type">Type</label><select id="nc-type" name="consent_type">${CONSENT_TYPES.map(
  (t) => html`<option value="${t}">${TYPE_LABEL[t]}</option>`,
)}</select></div>
<div class="check"><input type="checkbox" id="nc-required" name="required"><label for="nc-required">Required at
signup (the hosted signup page and the API refuse a signup without it)</label></div>
${textsEditor('nc', 'Version 1. The first language is the one shown when the asked language has no text.')}
<button type="submit">Create definition</button></form></details>`;

export const CONSENTS_BODY = html`<p class="hint">The consents users give or withdraw (a newsletter, the terms of
use): offered on the hosted signup page and in the remote settings (<code>GET /identity/v1/config</code>), written
by the Core SDK's signup and updateProfile. A definition is archived, never deleted: users' consents and their
history keep naming it.</p>
${LANGUAGE_LIST}${NEW_DEFINITION}
${table('consents-table', 'Consent definitions', ['Key', 'Title', 'Type', 'Status', 'Required', 'Current version', 'Languages'], true)}`;

export const CONSENT_BODY = html`<p><a href="/console/consents">Back to the consents</a></p>${LANGUAGE_LIST}
<section aria-labelledby="h-definition"><h2 id="h-definition">Definition</h2><dl id="consent-details"></dl>
<div class="actions" data-perm="manage:settings">
<button type="button" id="toggle-status" aria-describedby="status-hint">Archive</button>
<button type="button" id="toggle-required" class="secondary">Make required</button></div>
<p class="hint" id="status-hint" data-perm="manage:settings">An archived definition is no longer offered nor
written; users' consents and their history keep it. Reactivating offers it again.</p></section>
<section aria-labelledby="h-publish" id="publish-section" data-perm="manage:settings"><h2 id="h-publish">Publish a new version</h2>
<form id="nv-form" novalidate>
${textsEditor('nv', "Filled with the current version's texts. The new version becomes current: the signup page and the remote settings offer it; users' consents keep the version they gave.")}
<div class="check"><input type="checkbox" id="nv-reconsent" name="require_reconsent" aria-describedby="nv-reconsent-hint"><label for="nv-reconsent">Ask users to accept it again</label></div>
<p class="hint" id="nv-reconsent-hint">Users who gave an older version answer again at their next sign-in through the hosted pages.</p>
<button type="submit" id="publish">Publish version</button></form></section>
<section aria-labelledby="h-versions"><h2 id="h-versions">Versions</h2>
${table('versions-table', 'Versions, newest first', ['Version', 'Language', 'Title', 'Description'])}</section>`;

/** On a user's page: their consents (GET /api/v1/users/{id}/profile-consents) and every change of them. */
export const USER_CONSENTS_SECTION = html`<section aria-labelledby="h-user-consents">
<h2 id="h-user-consents">Consents</h2>
${table('user-consents-table', "The user's consents", ['Consent', 'State', 'Version', 'Language', 'Type', 'Date', 'Reported by'])}
${table('consent-history-table', 'History of their consents, newest first', ['Date', 'Consent', 'Change', 'Version', 'Language', 'Reported by'])}
</section>`;
