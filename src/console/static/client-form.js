// Ward console, the client form (shared by "New client" and a client's page): reading and writing
// the fields the clients API accepts, client-side checks for obviously bad callback URLs and origins
// (the API's own validation stays the rule: its error_details land next to the fields they name),
// and the one-time secret panel (dismissable, with a copy button; the secret is never shown again).
(function () {
  'use strict';
  var C = window.WardConsole;
  var FIELDS = [
    'client_id',
    'name',
    'type',
    'jwt_algorithm',
    'allowed_callback_urls',
    'allowed_origins',
    'scope',
    'pkce_enforced',
    'grant_types',
    'response_types',
    'post_logout_redirect_uris',
    'backchannel_logout_uri',
    'logo_uri',
    'client_uri',
    'policy_uri',
    'tos_uri',
    'token_endpoint_auth_method',
    'jwks_uri',
    'jwks',
    'request_object_signing_alg',
    'client_credentials_resources',
  ];
  var lines = function (v) {
    return v
      .split(/\r?\n/)
      .map(function (s) {
        return s.trim();
      })
      .filter(Boolean);
  };
  var LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

  /** Why a callback URL is obviously wrong, or null (the API checks the finer rules). */
  function callbackProblem(v) {
    if (/[\s\\]/.test(v)) return 'must not contain spaces or backslashes';
    if (/^\s*(javascript|data|vbscript|file):/i.test(v))
      return 'must not use a javascript:, data:, vbscript: or file: scheme';
    var u;
    try {
      u = new URL(v);
    } catch {
      return 'must be an absolute URL, e.g. https://app.example/callback';
    }
    if (v.indexOf('#') >= 0) return 'must not contain a fragment (#…)';
    if (u.protocol === 'https:') return null;
    if (u.protocol === 'http:')
      return LOOPBACK.indexOf(u.hostname) >= 0 ? null : 'must use https (http is allowed only for loopback addresses)';
    return /\./.test(u.protocol)
      ? null
      : 'must use https, loopback http, or a reverse-domain scheme such as com.example.app:/cb';
  }
  function originProblem(v) {
    var u;
    try {
      u = new URL(v);
    } catch {
      return 'must be an origin such as https://app.example';
    }
    if (u.origin !== v) return 'must be exactly an origin (scheme://host[:port], no path or trailing slash)';
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.indexOf(u.hostname) >= 0))
      return 'must use https (http only for loopback)';
    return null;
  }

  function slot(form, name) {
    return form.querySelector('#e-' + name);
  }
  function control(form, name) {
    return form.querySelector('#f-' + name) || form.querySelector('fieldset[aria-describedby~="h-' + name + '"]');
  }
  function clearErrors(form) {
    FIELDS.forEach(function (n) {
      var s = slot(form, n),
        c = control(form, n);
      if (s) {
        s.textContent = '';
        s.hidden = true;
      }
      if (c) c.removeAttribute('aria-invalid');
    });
  }
  /** Shows messages next to their fields ({field: [messages]}); the first invalid field gets the focus. */
  function showErrors(form, byField) {
    var first = null;
    Object.keys(byField).forEach(function (n) {
      var s = slot(form, n),
        c = control(form, n);
      if (!s) return;
      s.textContent = byField[n].join(' ');
      s.hidden = false;
      if (c) {
        c.setAttribute('aria-invalid', 'true');
        first = first || c;
      }
    });
    if (first) (first.tagName === 'FIELDSET' ? first.querySelector('input') : first).focus();
    return !!first;
  }
  /** The API's error_details ("allowed_callback_urls[1]", "client.jwt_algorithm") grouped by form field. */
  function detailsByField(details) {
    var out = {};
    (details || []).forEach(function (d) {
      var name = String(d.field || '')
        .replace(/^client\./, '')
        .replace(/[[.].*$/, '');
      if (FIELDS.indexOf(name) < 0) return;
      (out[name] = out[name] || []).push(d.message);
    });
    return out;
  }

  function check(form) {
    var errs = {};
    var add = function (n, m) {
      (errs[n] = errs[n] || []).push(m);
    };
    var id = form.elements.client_id;
    if (id && !/^[A-Za-z0-9._~-]{1,128}$/.test(id.value.trim()))
      add('client_id', 'A client ID is 1 to 128 letters, digits or . _ ~ -');
    lines(form.elements.allowed_callback_urls.value).forEach(function (v) {
      var p = callbackProblem(v);
      if (p) add('allowed_callback_urls', v + ' ' + p + '.');
    });
    lines(form.elements.post_logout_redirect_uris.value).forEach(function (v) {
      var p = callbackProblem(v);
      if (p) add('post_logout_redirect_uris', v + ' ' + p + '.');
    });
    lines(form.elements.allowed_origins.value).forEach(function (v) {
      var p = originProblem(v);
      if (p) add('allowed_origins', v + ' ' + p + '.');
    });
    var jwks = form.elements.jwks.value.trim();
    if (jwks) {
      try {
        JSON.parse(jwks);
      } catch {
        add('jwks', 'The JWK Set must be JSON, such as {"keys": [{"kty": "EC", ...}]}.');
      }
    }
    var resources = form.elements.client_credentials_resources.value.trim();
    if (resources) {
      try {
        JSON.parse(resources);
      } catch {
        add('client_credentials_resources', 'Must be JSON, such as {"https://api.example": ["read"]}.');
      }
    }
    if (form.elements.type.value === 'public' && form.elements.jwt_algorithm.value === 'HS256')
      add('jwt_algorithm', 'HS256 needs a client secret: a public client must use RS256, ES256 or EdDSA.');
    return errs;
  }

  /** The fields a resource server leaves empty: it only introspects tokens. */
  function signInFields(form) {
    return [form.elements.allowed_callback_urls, form.elements.allowed_origins, form.elements.pkce_enforced].concat(
      Array.prototype.slice.call(form.querySelectorAll('input[name=grant_types], input[name=response_types]')),
    );
  }

  /**
   * A public client always requires PKCE and cannot use client credentials; a resource server signs
   * no one in (no callback, origin, grant or response type): the form says so.
   */
  function applyType(form) {
    var type = form.elements.type.value,
      pub = type === 'public',
      server = type === 'resource_server',
      pkce = form.elements.pkce_enforced,
      cc = form.querySelector('#f-g-client_credentials');
    if (pub) {
      pkce.checked = true;
      cc.checked = false;
    }
    if (server)
      signInFields(form).forEach(function (el) {
        if (el.type === 'checkbox') el.checked = false;
        else el.value = '';
      });
    if (!form.dataset.readonly) {
      signInFields(form).forEach(function (el) {
        el.disabled = server;
      });
      if (!server) {
        pkce.disabled = pub;
        cc.disabled = pub;
      }
    }
  }

  function checkedValues(form, name) {
    return Array.prototype.filter
      .call(form.querySelectorAll('input[name=' + name + ']'), function (c) {
        return c.checked;
      })
      .map(function (c) {
        return c.value;
      });
  }
  function read(form) {
    var e = form.elements;
    var body = {
      name: e.name.value.trim(),
      type: e.type.value,
      jwt_algorithm: e.jwt_algorithm.value,
      allowed_callback_urls: lines(e.allowed_callback_urls.value),
      allowed_origins: lines(e.allowed_origins.value),
      post_logout_redirect_uris: lines(e.post_logout_redirect_uris.value),
      backchannel_logout_uri: e.backchannel_logout_uri.value.trim() || null,
      backchannel_logout_session_required: e.backchannel_logout_session_required.checked,
      sso: e.sso.checked,
      first_party: e.first_party.checked,
      require_pushed_authorization_requests: e.require_pushed_authorization_requests.checked,
      require_signed_request_object: e.require_signed_request_object.checked,
      dpop_bound_access_tokens: e.dpop_bound_access_tokens.checked,
      request_object_signing_alg: e.request_object_signing_alg.value || null,
      client_credentials_resources: {},
      logo_uri: e.logo_uri.value.trim() || null,
      client_uri: e.client_uri.value.trim() || null,
      policy_uri: e.policy_uri.value.trim() || null,
      tos_uri: e.tos_uri.value.trim() || null,
      token_endpoint_auth_method: e.token_endpoint_auth_method.value || null,
      jwks_uri: e.jwks_uri.value.trim() || null,
      jwks: null,
      grant_types: checkedValues(form, 'grant_types'),
      response_types: checkedValues(form, 'response_types'),
    };
    // check() refused JSON that does not parse before read() is called.
    if (e.jwks.value.trim()) body.jwks = JSON.parse(e.jwks.value.trim());
    var resources = e.client_credentials_resources.value.trim();
    if (resources) body.client_credentials_resources = JSON.parse(resources);
    if (body.type === 'public') body.token_endpoint_auth_method = null;
    if (e.scope.value.trim()) body.scope = e.scope.value.trim().replace(/\s+/g, ' ');
    if (body.type === 'confidential') body.pkce_enforced = e.pkce_enforced.checked;
    if (body.type === 'resource_server') {
      body.allowed_callback_urls = [];
      body.allowed_origins = [];
      body.grant_types = [];
      body.response_types = [];
    }
    if (e.client_id) body.client_id = e.client_id.value.trim();
    if (!body.name) delete body.name;
    return body;
  }
  function write(form, c) {
    var e = form.elements;
    e.name.value = c.name;
    e.type.value = c.type;
    e.jwt_algorithm.value = c.jwt_algorithm;
    e.allowed_callback_urls.value = c.allowed_callback_urls.join('\n');
    e.allowed_origins.value = c.allowed_origins.join('\n');
    e.post_logout_redirect_uris.value = (c.post_logout_redirect_uris || []).join('\n');
    e.backchannel_logout_uri.value = c.backchannel_logout_uri || '';
    e.backchannel_logout_session_required.checked = !!c.backchannel_logout_session_required;
    e.scope.value = c.scope || '';
    e.sso.checked = !!c.sso;
    e.first_party.checked = c.first_party !== false;
    e.require_pushed_authorization_requests.checked = !!c.require_pushed_authorization_requests;
    e.require_signed_request_object.checked = !!c.require_signed_request_object;
    e.dpop_bound_access_tokens.checked = !!c.dpop_bound_access_tokens;
    e.request_object_signing_alg.value = c.request_object_signing_alg || '';
    var held = c.client_credentials_resources || {};
    e.client_credentials_resources.value = Object.keys(held).length ? JSON.stringify(held, null, 2) : '';
    ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri'].forEach(function (n) {
      e[n].value = c[n] || '';
    });
    e.token_endpoint_auth_method.value = c.token_endpoint_auth_method || '';
    e.jwks_uri.value = c.jwks_uri || '';
    e.jwks.value = c.jwks ? JSON.stringify(c.jwks, null, 2) : '';
    e.pkce_enforced.checked = !!c.pkce_enforced;
    form.querySelectorAll('input[name=grant_types]').forEach(function (g) {
      g.checked = c.grant_types.indexOf(g.value) >= 0;
    });
    form.querySelectorAll('input[name=response_types]').forEach(function (t) {
      t.checked = (c.response_types || ['code']).indexOf(t.value) >= 0;
    });
    applyType(form);
  }

  /** Wires the form: checks first, then submit(body); an API refusal shows its details next to the fields. */
  function bind(form, submit) {
    form.elements.type.addEventListener('change', function () {
      applyType(form);
    });
    if (!C.can('manage:clients')) {
      form.dataset.readonly = 'true';
      Array.prototype.forEach.call(form.elements, function (el) {
        el.disabled = true;
      });
    }
    applyType(form);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      clearErrors(form);
      C.error('');
      if (showErrors(form, check(form))) {
        C.error('Some fields need attention: see the messages next to them.');
        return;
      }
      C.run(
        async function () {
          try {
            await submit(read(form));
          } catch (err) {
            showErrors(form, detailsByField(err.details));
            throw err;
          }
        },
        form.querySelector('button[type=submit]'),
        form.dataset.mode === 'create' ? 'Creating the client…' : 'Saving…',
      );
    });
  }

  /** The one-time secret of a client (secret-once.js). */
  function showSecret(clientId, secret) {
    C.showOnce(C.$('#secret-slot'), 'Client secret of ' + clientId, secret, null, 'Client secret');
  }

  C.clientForm = { bind: bind, write: write, read: read, callbackProblem: callbackProblem };
  C.showSecret = showSecret;
})();
