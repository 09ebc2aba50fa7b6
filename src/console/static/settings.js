// Ward console, Account settings: every field of GET/PATCH /api/v1/settings/account (MFA, verification
// codes and their per-user limits, request limits per client IP, token and session lifetimes, password
// policy, passkeys, self-service, custom profile fields as a JSON list, social sign-up). Dotted input names are nested fields; an empty request limit means "no limit" (null).
(function () {
  var CHECKBOXES = [
    'step_up_bearer_allowed',
    'password_refuse_user_info',
    'password_refuse_common',
    'passwordless.magic_link',
    'passwordless.sms',
    'passwordless.signup',
    'social_signup.email_required',
  ];
  ('use strict');
  var C = window.WardConsole,
    $ = C.$;

  var get = function (obj, path) {
    return path.split('.').reduce(function (o, k) {
      return o === null || o === undefined ? undefined : o[k];
    }, obj);
  };
  function set(obj, path, value) {
    var keys = path.split('.'),
      last = keys.pop();
    keys.reduce(function (o, k) {
      return (o[k] = o[k] || {});
    }, obj)[last] = value;
  }

  C.pages.settings = async function () {
    var form = $('#settings-form');
    var numbers = Array.prototype.filter.call(form.elements, function (el) {
      return el.type === 'number';
    });
    function show(s) {
      form.elements.mfa_required.value = String(s.mfa_required).toLowerCase();
      CHECKBOXES.forEach(function (name) {
        form.elements[name].checked = !!get(s, name);
      });
      var pk = s.passkeys || {};
      form.elements['passkeys.enabled'].checked = !!pk.enabled;
      form.elements['passkeys.user_verification_is_mfa'].checked = !!pk.user_verification_is_mfa;
      form.elements['passkeys.recovery_replaces'].checked = !!pk.recovery_replaces;
      form.elements['passkeys.rp_id'].value = pk.rp_id || '';
      form.elements['passkeys.rp_name'].value = pk.rp_name || '';
      form.elements['passkeys.origins'].value = (pk.origins || []).join('\n');
      numbers.forEach(function (el) {
        var v = get(s, el.name);
        el.value = v === null || v === undefined ? '' : String(v);
      });
      form.elements.password_breach_check_url.value = s.password_breach_check_url || '';
      form.elements['social_signup.completion_url'].value = (s.social_signup || {}).completion_url || '';
      form.elements['self_service.email_verification'].value = (s.self_service || {}).email_verification || 'off';
      form.elements.custom_fields.value = JSON.stringify(s.custom_fields || [], null, 2);
    }
    show(await C.api('GET', '/api/v1/settings/account'));
    if (!C.can('manage:settings')) {
      Array.prototype.forEach.call(form.elements, function (el) {
        el.disabled = true;
      });
      return;
    }
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var completion = form.elements['social_signup.completion_url'];
      var checked = numbers.concat([form.elements.password_breach_check_url, completion]);
      var bad = checked.filter(function (el) {
        return !el.checkValidity();
      });
      checked.forEach(function (el) {
        if (el.checkValidity()) el.removeAttribute('aria-invalid');
        else el.setAttribute('aria-invalid', 'true');
      });
      if (bad.length) {
        C.error(
          'Check ' +
            bad
              .map(function (el) {
                return el.labels[0].textContent;
              })
              .join(', ') +
            ': ' +
            bad[0].validationMessage,
        );
        bad[0].focus();
        return;
      }
      var customFields = form.elements.custom_fields;
      var fields;
      try {
        fields = JSON.parse(customFields.value.trim() || '[]');
        customFields.removeAttribute('aria-invalid');
      } catch (err) {
        customFields.setAttribute('aria-invalid', 'true');
        C.error('Check Custom fields (JSON list): ' + err.message);
        customFields.focus();
        return;
      }
      var url = form.elements.password_breach_check_url.value.trim();
      var patch = { mfa_required: form.elements.mfa_required.value, password_breach_check_url: url || null };
      CHECKBOXES.forEach(function (name) {
        set(patch, name, form.elements[name].checked);
      });
      numbers.forEach(function (el) {
        set(patch, el.name, el.value === '' ? null : Number(el.value));
      });
      patch.passkeys.enabled = form.elements['passkeys.enabled'].checked;
      patch.passkeys.user_verification_is_mfa = form.elements['passkeys.user_verification_is_mfa'].checked;
      patch.passkeys.recovery_replaces = form.elements['passkeys.recovery_replaces'].checked;
      patch.passkeys.rp_id = form.elements['passkeys.rp_id'].value.trim() || null;
      patch.passkeys.rp_name = form.elements['passkeys.rp_name'].value.trim();
      patch.self_service.email_verification = form.elements['self_service.email_verification'].value;
      patch.social_signup.completion_url = completion.value.trim() || null;
      patch.passkeys.origins = form.elements['passkeys.origins'].value.split(/\s+/).filter(function (o) {
        return o !== '';
      });
      patch.custom_fields = fields;
      C.run(
        async function () {
          show(await C.api('PATCH', '/api/v1/settings/account', patch));
          C.status('Settings saved.');
        },
        form.querySelector('button[type=submit]'),
        'Saving…',
      );
    });
  };
})();
