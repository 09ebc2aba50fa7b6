// Ward console, core (a classic script, served by src/console/routes.ts): the sign-in through Ward
// itself (code flow with PKCE S256 and state, code exchanged at /oauth/token from the browser), the
// user's access token in sessionStorage, sign-out (token revoked, then the Ward session ended at
// /identity/v1/logout), management API calls whose errors carry error_user_msg and error_details,
// session expiry (any 401: a clear notice, back to sign-in), small DOM helpers, progress for long
// operations, and the permissions of the signed-in role (GET /console/api/me): elements marked
// data-perm are removed when the role lacks that permission. Page scripts fill WardConsole.pages.
(function () {
  'use strict';
  // biome-ignore format: routes.ts replaces the CONFIG placeholder below as exact text
  var CONFIG = /*CONFIG*/null;
  var TOKEN = 'ward-console:token',
    PKCE = 'ward-console:pkce',
    NOTICE = 'ward-console:notice';
  var $ = function (sel, root) {
    return (root || document).querySelector(sel);
  };

  function readJson(key) {
    try {
      return JSON.parse(sessionStorage.getItem(key) || 'null');
    } catch {
      return null;
    }
  }
  /** The stored token, or null when absent or expired. */
  function token() {
    var t = readJson(TOKEN);
    if (!t || typeof t.access_token !== 'string') return null;
    if (t.expires_at <= Date.now()) {
      sessionStorage.removeItem(TOKEN);
      sessionStorage.setItem(NOTICE, EXPIRED);
      return null;
    }
    return t;
  }
  function b64url(bytes) {
    var s = '';
    new Uint8Array(bytes).forEach(function (b) {
      s += String.fromCharCode(b);
    });
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  var random = function () {
    return b64url(crypto.getRandomValues(new Uint8Array(32)));
  };
  var safeReturn = function (p) {
    return typeof p === 'string' && /^\/console\/[A-Za-z0-9/_.%?=&-]*$/.test(p) && p.indexOf('//') < 0
      ? p
      : '/console/clients';
  };

  async function signIn(returnTo) {
    var verifier = random(),
      state = random();
    var challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    sessionStorage.setItem(PKCE, JSON.stringify({ verifier: verifier, state: state, returnTo: safeReturn(returnTo) }));
    var q = new URLSearchParams({
      client_id: CONFIG.client_id,
      response_type: 'code',
      redirect_uri: CONFIG.redirect_uri,
      scope: 'openid profile email',
      state: state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    location.assign('/oauth/authorize?' + q.toString());
  }

  function apiError(body, status) {
    var e = new Error(
      (body && (body.error_user_msg || body.error_description)) || 'The request failed (HTTP ' + status + ').',
    );
    e.status = status;
    e.details = body && Array.isArray(body.error_details) ? body.error_details : [];
    return e;
  }
  var EXPIRED = 'Your session has expired or was ended. Please sign in again.';
  /** Back to the sign-in page with a notice, coming back here afterwards. */
  function expired() {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.setItem(NOTICE, EXPIRED);
    location.assign('/console/login?return_to=' + encodeURIComponent(location.pathname + location.search));
  }

  /** Redeems the code of /console/callback; null when there is none (back from sign-out). */
  async function completeSignIn() {
    var q = new URLSearchParams(location.search);
    var saved = readJson(PKCE);
    sessionStorage.removeItem(PKCE);
    history.replaceState(null, '', '/console/callback');
    if (q.get('error')) throw new Error(q.get('error_description') || 'Sign-in failed: ' + q.get('error'));
    if (!q.get('code')) return null;
    if (!saved || saved.state !== q.get('state'))
      throw new Error('This sign-in response does not belong to this browser tab. Please sign in again.');
    var res = await fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: q.get('code'),
        redirect_uri: CONFIG.redirect_uri,
        client_id: CONFIG.client_id,
        code_verifier: saved.verifier,
      }),
    });
    var body = await res.json().catch(function () {
      return {};
    });
    if (!res.ok || !body.access_token) throw apiError(body, res.status);
    sessionStorage.setItem(
      TOKEN,
      JSON.stringify({ access_token: body.access_token, expires_at: Date.now() + (body.expires_in || 3600) * 1000 }),
    );
    return saved.returnTo;
  }

  async function signOut() {
    var t = readJson(TOKEN);
    sessionStorage.removeItem(TOKEN);
    if (t && t.access_token) {
      await fetch('/oauth/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: t.access_token, client_id: CONFIG.client_id }),
      }).catch(function () {
        /* the token dies with its lifetime anyway */
      });
    }
    location.assign('/identity/v1/logout?redirect_to=' + encodeURIComponent(CONFIG.redirect_uri));
  }

  /** A management API call with the user's token: the JSON answer, or an Error carrying error_user_msg. */
  async function api(method, path, body) {
    var t = token();
    if (!t) {
      expired();
      throw new Error(EXPIRED);
    }
    var headers = { authorization: 'Bearer ' + t.access_token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    var res = await fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 204) return null;
    var data = await res.json().catch(function () {
      return {};
    });
    if (res.status === 401) {
      expired();
      throw new Error(EXPIRED);
    }
    if (!res.ok) throw apiError(data, res.status);
    return data;
  }

  /** h('tr', {class: 'x'}, 'text', child...): an element; attributes starting with "on" are refused. */
  function h(tag, attrs) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === false || v === null || v === undefined || /^on/i.test(k)) return;
      el.setAttribute(k, v === true ? '' : String(v));
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }
  /** Replaces a tbody's rows; an empty list shows one row saying so. */
  function fill(tbody, rows, columns, empty) {
    tbody.replaceChildren.apply(
      tbody,
      rows.length ? rows : [h('tr', {}, h('td', { colspan: columns, class: 'empty' }, empty))],
    );
  }
  function dl(target, pairs) {
    target.replaceChildren();
    pairs.forEach(function (p) {
      target.append(h('dt', {}, p[0]), h('dd', {}, p[1] === null || p[1] === undefined || p[1] === '' ? '—' : p[1]));
    });
  }
  var date = function (s) {
    return s ? new Date(s).toLocaleString() : '—';
  };
  function status(text) {
    $('#status').textContent = text || '';
  }
  function error(text) {
    var box = $('#error');
    box.textContent = text || '';
    box.classList.toggle('shown', !!text);
  }

  /** Runs an action: progress in the status region, the button disabled meanwhile, errors shown. */
  async function run(fn, button, progress) {
    error('');
    var label = progress || 'Working…';
    status(label);
    var done = function () {
      if ($('#status').textContent === label) status('');
    };
    if (button) {
      button.disabled = true;
      button.setAttribute('aria-busy', 'true');
    }
    document.body.setAttribute('aria-busy', 'true');
    try {
      var out = await fn();
      done();
      return out;
    } catch (e) {
      done();
      error(e.message);
      return undefined;
    } finally {
      document.body.removeAttribute('aria-busy');
      if (button && document.contains(button)) {
        button.disabled = false;
        button.removeAttribute('aria-busy');
      }
    }
  }

  /** A table cell; a dash for no value. */
  function td(v) {
    return h('td', {}, v === null || v === undefined || v === '' ? '—' : v);
  }

  /** Goes to a console page, which shows the notice in its status region. */
  function go(path, notice) {
    if (notice) sessionStorage.setItem(NOTICE, notice);
    location.assign(path);
  }

  var WardConsole = {
    pages: {},
    api: api,
    h: h,
    fill: fill,
    dl: dl,
    td: td,
    date: date,
    status: status,
    error: error,
    run: run,
    go: go,
    $: $,
    me: null,
  };
  WardConsole.can = function (p) {
    return !!WardConsole.me && WardConsole.me.permissions.indexOf(p) >= 0;
  };
  window.WardConsole = WardConsole;

  async function boot() {
    var page = document.body.dataset.page;
    var out = $('#logout');
    if (out)
      out.addEventListener('click', function () {
        run(signOut, out, 'Signing out…');
      });
    var notice = sessionStorage.getItem(NOTICE);
    sessionStorage.removeItem(NOTICE);
    if (page === 'login') {
      if (notice) {
        var box = $('#notice');
        box.textContent = notice;
        box.hidden = false;
      }
      var ret = new URLSearchParams(location.search).get('return_to');
      $('#signin').addEventListener('click', function () {
        run(
          function () {
            return signIn(ret);
          },
          $('#signin'),
          'Redirecting to sign-in…',
        );
      });
      return;
    }
    if (page === 'callback') {
      try {
        var target = await completeSignIn();
        if (target) {
          location.replace(target);
          return;
        }
        $('#callback-msg').textContent = 'You are signed out.';
        document.title = 'Signed out · Ward console';
      } catch (e) {
        $('#callback-msg').textContent = 'The sign-in did not complete.';
        error(e.message);
      }
      $('#callback-retry').hidden = false;
      return;
    }
    if (!token()) {
      // An expired token (token() left a notice): say so on the sign-in page rather than re-authorize silently.
      if (sessionStorage.getItem(NOTICE) === EXPIRED) {
        expired();
        return;
      }
      await signIn(location.pathname + location.search);
      return;
    }
    var me = await run(
      function () {
        return api('GET', '/console/api/me');
      },
      null,
      'Loading…',
    );
    if (!me) return;
    WardConsole.me = me;
    $('#who').textContent =
      (me.email || me.id) + ' · ' + (me.role ? me.role.charAt(0).toUpperCase() + me.role.slice(1) : 'no role');
    document.querySelectorAll('[data-perm]').forEach(function (el) {
      if (!WardConsole.can(el.dataset.perm)) el.remove();
    });
    var fn = WardConsole.pages[page];
    if (fn)
      await run(
        function () {
          return fn(WardConsole);
        },
        null,
        'Loading…',
      );
    if (notice) status(notice);
  }
  document.addEventListener('DOMContentLoaded', boot);
})();
