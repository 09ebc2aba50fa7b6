// The HTML of the client pages: the client form (shared by "New client" and a client's page; every
// field labelled, with a hint and an error slot tied to it by aria-describedby), the one-time secret,
// deletion, and the client's signing keys (Rotate / Account sync, revocation).
import { type HtmlValue, html, joinHtml, type SafeHtml } from '../lib/html.js';

/** A field's hint and error slot; the script fills #e-<name> from client checks or error_details. */
const slots = (name: string, hint: string) =>
  html`<p class="hint" id="h-${name}">${hint}</p><p class="field-error" id="e-${name}" hidden></p>`;
const described = (name: string) => html`aria-describedby="h-${name} e-${name}"`;

/** A labelled control (input, textarea or select) named `name`, then its hint and error slot. */
function control(name: string, label: string, element: SafeHtml, hint: string): SafeHtml {
  return html`<label for="f-${name}">${label}</label>${element}\n${slots(name, hint)}`;
}
const input = (name: string, label: string, attrs: SafeHtml, hint: string) =>
  control(name, label, html`<input id="f-${name}" name="${name}" ${attrs} ${described(name)}>`, hint);
const urls = (name: string, label: string, rows: number, hint: string) =>
  control(
    name,
    label,
    html`<textarea id="f-${name}" name="${name}" rows="${rows}" spellcheck="false" ${described(name)}></textarea>`,
    hint,
  );
const select = (name: string, label: string, options: Array<[string, string]>, hint: string) =>
  control(
    name,
    label,
    html`<select id="f-${name}" name="${name}" ${described(name)}>${joinHtml(
      options.map(([value, text]) => html`<option value="${value}">${text}</option>`),
      html`\n`,
    )}</select>`,
    hint,
  );
/** A checkbox; `attrs` may add value, checked or aria-describedby. */
const check = (id: string, name: string, label: string, attrs?: SafeHtml) =>
  html`<div class="check"><input type="checkbox" id="f-${id}" name="${name}"${attrs && html` ${attrs}`}><label for="f-${id}">${label}</label></div>`;
const choices = (name: string, legend: string, boxes: SafeHtml[], hint: string) =>
  html`<fieldset ${described(name)}><legend>${legend}</legend>\n${joinHtml(boxes, html`\n`)}\n${slots(name, hint)}</fieldset>`;

const TYPE_HINT =
  'A public client cannot keep a secret: it always uses PKCE and RS256. A resource server has a secret and may ' +
  'only introspect tokens at /oauth/introspect: no sign-in, no grant.';
const ALGORITHM_HINT =
  'RS256, ES256 and EdDSA sign with a key pair (RSA, EC P-256, Ed25519) published at /jwks.json; HS256 signs ' +
  'with the client secret (confidential clients only). A client with its own key pair is synced with global ' +
  'before it changes algorithm.';
const AUTH_METHOD_HINT =
  'How a confidential client or resource server proves itself at /oauth/token, /oauth/introspect and ' +
  '/oauth/revoke; it may use only this method. A public client has none.';
const GRANTS_HINT =
  'Client credentials is for confidential clients only. The password grant is off unless checked; a user who ' +
  'must use a second factor cannot use it.';

function clientForm(create: boolean): SafeHtml {
  const id = create
    ? input(
        'client_id',
        'Client ID',
        html`required maxlength="128" autocomplete="off"`,
        'Letters, digits and . _ ~ - (at most 128). It cannot be changed later.',
      )
    : null;
  const fields = [
    input('name', 'Name', html`maxlength="200"`, 'Shown to operators and on the consent page.'),
    select(
      'type',
      'Application type',
      [
        ['public', 'Public (SPA, native app)'],
        ['confidential', 'Confidential (server with a secret)'],
        ['resource_server', 'Resource server (an API that introspects tokens)'],
      ],
      TYPE_HINT,
    ),
    select(
      'jwt_algorithm',
      'JWT Algorithm',
      ['RS256', 'ES256', 'EdDSA', 'HS256'].map((a) => [a, a]),
      ALGORITHM_HINT,
    ),
    select(
      'token_endpoint_auth_method',
      'Client authentication',
      [
        ['', 'The client secret (Basic or in the body)'],
        ['client_secret_basic', 'client_secret_basic only'],
        ['client_secret_post', 'client_secret_post only'],
        ['client_secret_jwt', 'client_secret_jwt (a JWT signed with the secret)'],
        ['private_key_jwt', "private_key_jwt (a JWT signed with the client's key)"],
      ],
      AUTH_METHOD_HINT,
    ),
    input(
      'jwks_uri',
      'JWK Set URL',
      html`maxlength="2048" spellcheck="false"`,
      "private_key_jwt: where the client's public keys are fetched (https). Or paste them below.",
    ),
    urls(
      'jwks',
      'JWK Set',
      3,
      'private_key_jwt: the public keys as JSON, {"keys": [...]} (no private part). Leave empty with a JWK Set URL.',
    ),
    select(
      'request_object_signing_alg',
      'Request object algorithm',
      [
        ['', 'Any of RS256, PS256, ES256, EdDSA'],
        ...['RS256', 'PS256', 'ES256', 'EdDSA'].map((a): [string, string] => [a, a]),
      ],
      'Signed request objects (RFC 9101) are verified with the keys above; this narrows them to one algorithm.',
    ),
    urls(
      'client_credentials_resources',
      'API resources for client_credentials',
      2,
      'JSON: each API resource identifier this client may name as resource, with its scopes, such as {"https://api.example": ["read"]}. Empty: none.',
    ),
    urls(
      'allowed_callback_urls',
      'Allowed Callback URLs',
      3,
      'One URL per line: https, http on loopback only, or a reverse-domain scheme (com.example.app:/cb). No fragment.',
    ),
    urls(
      'allowed_origins',
      'Allowed origins',
      2,
      'One origin per line, scheme://host[:port] without a path (for CORS and cross-origin authentication).',
    ),
    urls(
      'post_logout_redirect_uris',
      'Allowed logout URLs',
      2,
      'One URL per line: where OpenID Connect logout (post_logout_redirect_uri) may return, compared exactly.',
    ),
    input(
      'backchannel_logout_uri',
      'Back-channel logout URL',
      html`maxlength="2048" spellcheck="false"`,
      'Optional. Ward POSTs a signed logout_token here when a session this app had ends. ' +
        'Same scheme, host and port as a callback URL.',
    ),
    check(
      'backchannel_logout_session_required',
      'backchannel_logout_session_required',
      'Back-channel logout needs the session id (sid)',
    ),
    ...(
      [
        ['logo_uri', 'Logo URL'],
        ['client_uri', 'Home page URL'],
        ['policy_uri', 'Privacy policy URL'],
        ['tos_uri', 'Terms of service URL'],
      ] as const
    ).map(([name, label]) =>
      input(
        name,
        label,
        html`maxlength="2048" spellcheck="false"`,
        'Optional. Shown on the consent page of a third-party app.',
      ),
    ),
    input('scope', 'Scopes', html`maxlength="1000"`, 'Space-separated, e.g. openid profile email.'),
    html`<fieldset><legend>Options</legend>
${check('sso', 'sso', 'Single sign-on (SSO)')}
${check('first_party', 'first_party', 'First-party app (no consent page)', html`checked`)}
${check('require_pushed_authorization_requests', 'require_pushed_authorization_requests', 'Require pushed authorization requests (PAR, RFC 9126)')}
${check('require_signed_request_object', 'require_signed_request_object', 'Require signed request objects (RFC 9101)')}
${check('dpop_bound_access_tokens', 'dpop_bound_access_tokens', 'Require DPoP at the token endpoint (RFC 9449)')}
${check('pkce_enforced', 'pkce_enforced', 'Require PKCE', described('pkce_enforced'))}
${slots('pkce_enforced', 'A public client always requires PKCE.')}</fieldset>`,
    choices(
      'grant_types',
      'Grant types',
      [
        check('g-authorization_code', 'grant_types', 'Authorization code', html`value="authorization_code"`),
        check('g-refresh_token', 'grant_types', 'Refresh token', html`value="refresh_token"`),
        check('g-client_credentials', 'grant_types', 'Client credentials', html`value="client_credentials"`),
        check(
          'g-password',
          'grant_types',
          "Password (the Core SDK's loginWithCredentials and Cordova mode)",
          html`value="password"`,
        ),
        check(
          'g-device_code',
          'grant_types',
          'Device authorization (RFC 8628: TVs, consoles, command-line tools)',
          html`value="urn:ietf:params:oauth:grant-type:device_code"`,
        ),
      ],
      GRANTS_HINT,
    ),
    choices(
      'response_types',
      'Response types',
      [
        check('r-code', 'response_types', 'Code', html`value="code" checked`),
        check('r-id_token', 'response_types', 'ID token', html`value="id_token"`),
        check('r-code_id_token', 'response_types', 'Code and ID token', html`value="code id_token"`),
      ],
      'ID token responses (OpenID Connect) need a nonce and are returned in the fragment or by form_post.',
    ),
  ];
  return html`<form id="client-form" novalidate data-mode="${create ? 'create' : 'edit'}">${id}
${joinHtml(fields, html`\n`)}
<button type="submit" data-perm="manage:clients">${create ? 'Create client' : 'Save changes'}</button></form>`;
}

export const CREATE_CLIENT_BODY = html`<p><a href="/console/clients">Back to the clients</a></p>
<div id="secret-slot"></div>${clientForm(true)}`;

const th = (label: HtmlValue) => html`<th scope="col">${label}</th>`;

export const CLIENT_BODY = html`<div id="secret-slot"></div>
<section aria-labelledby="h-edit"><h2 id="h-edit">Settings</h2><dl id="client-details"></dl>
${clientForm(false)}</section>
<section aria-labelledby="h-secret" id="secret-section" data-perm="manage:clients">
<h2 id="h-secret">Client secret</h2>
<p class="hint" id="secret-hint">The secret is stored hashed: Ward cannot show it again.
Regenerating it stops the old one at once.</p>
<button type="button" id="regenerate-secret" aria-describedby="secret-hint">Regenerate secret</button></section>
<section aria-labelledby="h-keys"><h2 id="h-keys">Signing keys</h2><p>Key state: <strong id="key-state">&hellip;</strong></p>
<div class="actions" data-perm="manage:keys">
<button type="button" id="rotate" aria-describedby="key-hint">Rotate</button>
<button type="button" id="sync" aria-describedby="key-hint">Account sync</button></div>
<p id="key-hint" class="hint"></p>
<table id="keys-table"><caption>Keys of this client</caption><thead><tr>
${['kid', 'Status', 'Created', 'Retired', 'Revoked'].map(th)}${th(html`<span class="sr">Actions</span>`)}
</tr></thead><tbody></tbody></table></section>
<section aria-labelledby="h-delete" data-perm="manage:clients"><h2 id="h-delete">Delete this client</h2>
<p class="hint" id="delete-hint">Its applications can no longer sign users in, and its own keys are revoked.</p>
<button type="button" id="delete-client" class="danger" aria-describedby="delete-hint">Delete client</button>
</section>`;
