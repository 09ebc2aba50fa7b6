// The browser side of a hosted registration ceremony (the enrolment page's security key or passkey): the
// button asks the browser for a new credential on the creation options in the page and posts it with the
// form, in the Core SDK's wire format (passkeys/wire.ts registrationResponse). The CSP allows this script
// by its hash; the options go in through jsonInScript.
import { jsonInScript } from '../../lib/html.js';

/** The script of a page with a form `key-form` (a hidden `credential`) and a button `create-key`. */
export const keyCreationScript = (options: unknown) => `(function () {
  'use strict';
  var o = ${jsonInScript(options)};
  var form = document.getElementById('key-form');
  var button = document.getElementById('create-key');
  if (!window.PublicKeyCredential || !navigator.credentials) { button.disabled = true; return; }
  var bin = function (s) { return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), function (c) { return c.charCodeAt(0); }); };
  var b64 = function (b) { return btoa(String.fromCharCode.apply(null, new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  button.addEventListener('click', function () {
    var exclude = (o.excludeCredentials || []).map(function (c) { return { type: 'public-key', id: bin(c.id), transports: c.transports }; });
    navigator.credentials.create({ publicKey: { challenge: bin(o.challenge), rp: o.rp,
      user: { id: bin(o.user.id), name: o.user.name, displayName: o.user.displayName },
      pubKeyCredParams: o.pubKeyCredParams, timeout: o.timeout, attestation: o.attestation,
      excludeCredentials: exclude, authenticatorSelection: o.authenticatorSelection } }).then(function (c) {
      var r = c.response;
      form.elements.credential.value = JSON.stringify({ id: c.id, raw_id: b64(c.rawId), type: 'public-key', response: {
        client_data_json: b64(r.clientDataJSON), attestation_object: b64(r.attestationObject),
        transports: r.getTransports ? r.getTransports() : [] } });
      form.submit();
    }, function () {});
  });
})();`;
