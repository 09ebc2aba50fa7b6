// The HTML of the client pages: the client form (shared by "New client" and a client's page; every
// field labelled, with a hint and an error slot tied to it by aria-describedby), the one-time secret,
// deletion, and the client's signing keys (Rotate / Account sync, revocation).

/** A field's hint and error slot; the script fills #e-<name> from client checks or error_details. */
const slots = (name: string, hint: string) =>
  `<p class="hint" id="h-${name}">${hint}</p><p class="field-error" id="e-${name}" hidden></p>`;
const described = (name: string) => `aria-describedby="h-${name} e-${name}"`;

function clientForm(create: boolean): string {
  const id = create
    ? `<label for="f-client_id">Client ID</label><input id="f-client_id" name="client_id" required maxlength="128" autocomplete="off" ${described('client_id')}>
${slots('client_id', 'Letters, digits and . _ ~ - (at most 128). It cannot be changed later.')}`
    : '';
  return `<form id="client-form" novalidate data-mode="${create ? 'create' : 'edit'}">${id}
<label for="f-name">Name</label><input id="f-name" name="name" maxlength="200" ${described('name')}>${slots('name', 'Shown to operators and on the consent page.')}
<label for="f-type">Application type</label><select id="f-type" name="type" ${described('type')}><option value="public">Public (SPA, native app)</option>
<option value="confidential">Confidential (server with a secret)</option>
<option value="resource_server">Resource server (an API that introspects tokens)</option></select>${slots('type', 'A public client cannot keep a secret: it always uses PKCE and RS256. A resource server has a secret and may only introspect tokens at /oauth/introspect: no sign-in, no grant.')}
<label for="f-jwt_algorithm">JWT Algorithm</label><select id="f-jwt_algorithm" name="jwt_algorithm" ${described('jwt_algorithm')}><option value="RS256">RS256</option><option value="ES256">ES256</option><option value="EdDSA">EdDSA</option><option value="HS256">HS256</option></select>
${slots('jwt_algorithm', 'RS256, ES256 and EdDSA sign with a key pair (RSA, EC P-256, Ed25519) published at /jwks.json; HS256 signs with the client secret (confidential clients only). A client with its own key pair is synced with global before it changes algorithm.')}
<label for="f-allowed_callback_urls">Allowed Callback URLs</label><textarea id="f-allowed_callback_urls" name="allowed_callback_urls" rows="3" spellcheck="false" ${described('allowed_callback_urls')}></textarea>
${slots('allowed_callback_urls', 'One URL per line: https, http on loopback only, or a reverse-domain scheme (com.example.app:/cb). No fragment.')}
<label for="f-allowed_origins">Allowed origins</label><textarea id="f-allowed_origins" name="allowed_origins" rows="2" spellcheck="false" ${described('allowed_origins')}></textarea>
${slots('allowed_origins', 'One origin per line, scheme://host[:port] without a path (for CORS and cross-origin authentication).')}
<label for="f-post_logout_redirect_uris">Allowed logout URLs</label><textarea id="f-post_logout_redirect_uris" name="post_logout_redirect_uris" rows="2" spellcheck="false" ${described('post_logout_redirect_uris')}></textarea>
${slots('post_logout_redirect_uris', 'One URL per line: where OpenID Connect logout (post_logout_redirect_uri) may return, compared exactly.')}
<label for="f-backchannel_logout_uri">Back-channel logout URL</label><input id="f-backchannel_logout_uri" name="backchannel_logout_uri" maxlength="2048" spellcheck="false" ${described('backchannel_logout_uri')}>
${slots('backchannel_logout_uri', 'Optional. Ward POSTs a signed logout_token here when a session this app had ends. Same scheme, host and port as a callback URL.')}
<div class="check"><input type="checkbox" id="f-backchannel_logout_session_required" name="backchannel_logout_session_required"><label for="f-backchannel_logout_session_required">Back-channel logout needs the session id (sid)</label></div>
<label for="f-scope">Scopes</label><input id="f-scope" name="scope" maxlength="1000" ${described('scope')}>${slots('scope', 'Space-separated, e.g. openid profile email.')}
<fieldset><legend>Options</legend>
<div class="check"><input type="checkbox" id="f-sso" name="sso"><label for="f-sso">Single sign-on (SSO)</label></div>
<div class="check"><input type="checkbox" id="f-pkce_enforced" name="pkce_enforced" ${described('pkce_enforced')}><label for="f-pkce_enforced">Require PKCE</label></div>
${slots('pkce_enforced', 'A public client always requires PKCE.')}</fieldset>
<fieldset ${described('grant_types')}><legend>Grant types</legend>
<div class="check"><input type="checkbox" id="f-g-authorization_code" name="grant_types" value="authorization_code"><label for="f-g-authorization_code">Authorization code</label></div>
<div class="check"><input type="checkbox" id="f-g-refresh_token" name="grant_types" value="refresh_token"><label for="f-g-refresh_token">Refresh token</label></div>
<div class="check"><input type="checkbox" id="f-g-client_credentials" name="grant_types" value="client_credentials"><label for="f-g-client_credentials">Client credentials</label></div>
<div class="check"><input type="checkbox" id="f-g-password" name="grant_types" value="password"><label for="f-g-password">Password (the Core SDK's loginWithCredentials and Cordova mode)</label></div>
${slots('grant_types', 'Client credentials is for confidential clients only. The password grant is off unless checked; a user who must use a second factor cannot use it.')}</fieldset>
<fieldset ${described('response_types')}><legend>Response types</legend>
<div class="check"><input type="checkbox" id="f-r-code" name="response_types" value="code" checked><label for="f-r-code">Code</label></div>
<div class="check"><input type="checkbox" id="f-r-id_token" name="response_types" value="id_token"><label for="f-r-id_token">ID token</label></div>
<div class="check"><input type="checkbox" id="f-r-code_id_token" name="response_types" value="code id_token"><label for="f-r-code_id_token">Code and ID token</label></div>
${slots('response_types', 'ID token responses (OpenID Connect) need a nonce and are returned in the fragment or by form_post.')}</fieldset>
<button type="submit" data-perm="manage:clients">${create ? 'Create client' : 'Save changes'}</button></form>`;
}

export const CREATE_CLIENT_BODY = `<p><a href="/console/clients">Back to the clients</a></p><div id="secret-slot"></div>${clientForm(true)}`;

export const CLIENT_BODY = `<div id="secret-slot"></div>
<section aria-labelledby="h-edit"><h2 id="h-edit">Settings</h2><dl id="client-details"></dl>${clientForm(false)}</section>
<section aria-labelledby="h-secret" id="secret-section" data-perm="manage:clients"><h2 id="h-secret">Client secret</h2>
<p class="hint" id="secret-hint">The secret is stored hashed: Ward cannot show it again. Regenerating it stops the old one at once.</p>
<button type="button" id="regenerate-secret" aria-describedby="secret-hint">Regenerate secret</button></section>
<section aria-labelledby="h-keys"><h2 id="h-keys">Signing keys</h2><p>Key state: <strong id="key-state">…</strong></p>
<div class="actions" data-perm="manage:keys"><button type="button" id="rotate" aria-describedby="key-hint">Rotate</button>
<button type="button" id="sync" aria-describedby="key-hint">Account sync</button></div><p id="key-hint" class="hint"></p>
<table id="keys-table"><caption>Keys of this client</caption><thead><tr><th scope="col">kid</th><th scope="col">Status</th><th scope="col">Created</th>
<th scope="col">Retired</th><th scope="col">Revoked</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody></tbody></table></section>
<section aria-labelledby="h-delete" data-perm="manage:clients"><h2 id="h-delete">Delete this client</h2>
<p class="hint" id="delete-hint">Its applications can no longer sign users in, and its own keys are revoked.</p>
<button type="button" id="delete-client" class="danger" aria-describedby="delete-hint">Delete client</button></section>`;
