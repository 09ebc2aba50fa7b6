// Ward console, an administrator's user actions (after users.js): on the Users page, New user (with a
// password; errors shown per field); on a user's page, the Account section: email and phone
// verification (Mark verified / unverified), the password sign-in protection state with Unlock,
// Send password reset, Export data (a JSON download), and Delete user, which asks in the confirmation
// dialog first; and the Edit profile form (PATCH /api/v1/users/{id}; errors shown per field).
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;

  var listPage = C.pages.users;
  C.pages.users = async function () {
    var form = $('#create-user-form');
    if (form)
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        var f = form.elements,
          body = f.invite.checked ? { invite: true } : { password: f.password.value };
        ['email', 'phone_number', 'given_name', 'family_name'].forEach(function (k) {
          if (f[k].value.trim()) body[k] = f[k].value.trim();
        });
        if (f.email_verified.checked) body.email_verified = true;
        if (f.phone_number_verified.checked) body.phone_number_verified = true;
        form.querySelectorAll('[aria-invalid]').forEach(function (el) {
          el.removeAttribute('aria-invalid');
        });
        C.run(
          async function () {
            try {
              var u = await C.api('POST', '/api/v1/users', body);
            } catch (err) {
              (err.details || []).forEach(function (d) {
                var el = f[d.field];
                if (el) el.setAttribute('aria-invalid', 'true');
              });
              throw err;
            }
            C.go('/console/users/' + enc(u.id), 'User created: ' + (u.email || u.phone_number) + '.');
          },
          form.querySelector('button[type=submit]'),
          'Creating the user…',
        );
      });
    await listPage();
  };

  var userPage = C.pages.user;
  C.pages.user = async function () {
    await userPage();
    var id = decodeURIComponent(location.pathname.split('/')[3] || ''),
      base = '/api/v1/users/' + enc(id),
      user = null;
    var emailBtn = $('#toggle-email-verified'),
      phoneBtn = $('#toggle-phone-verified'),
      unlockBtn = $('#unlock-user'),
      resetBtn = $('#send-reset'),
      profileForm = $('#profile-form'),
      exportBtn = $('#export-user'),
      deleteBtn = $('#delete-user');
    var yes = function (v) {
      return v ? 'Verified' : 'Not verified';
    };

    async function load() {
      user = await C.api('GET', base);
      var p = await C.api('GET', base + '/sign-in-protection');
      var state = p.locked
        ? 'Locked until ' + C.date(p.blocked_until)
        : p.blocked_until
          ? 'Slowed down until ' + C.date(p.blocked_until)
          : 'Open';
      C.dl($('#account-details'), [
        ['Email', user.email ? yes(user.email_verified) : null],
        ['Phone', user.phone_number ? yes(user.phone_number_verified) : null],
        ['Password sign-in', state + (p.failures ? ' (' + p.failures + ' failed attempts counted)' : '')],
      ]);
      if (emailBtn) {
        emailBtn.hidden = !user.email;
        emailBtn.textContent = user.email_verified ? 'Mark email unverified' : 'Mark email verified';
      }
      if (resetBtn) resetBtn.hidden = !user.email;
      if (profileForm) fillProfile(profileForm.elements);
      if (phoneBtn) {
        phoneBtn.hidden = !user.phone_number;
        phoneBtn.textContent = user.phone_number_verified ? 'Mark phone unverified' : 'Mark phone verified';
      }
    }

    var PROFILE = ['given_name', 'family_name', 'nickname', 'birthdate', 'gender', 'locale'];
    function fillProfile(f) {
      PROFILE.forEach(function (k) {
        f[k].value = user[k] || '';
      });
      var custom = user.custom_fields || {};
      f.custom_fields.value = Object.keys(custom).length ? JSON.stringify(custom, null, 2) : '';
    }

    if (profileForm)
      profileForm.addEventListener('submit', function (e) {
        e.preventDefault();
        var f = profileForm.elements,
          body = {};
        PROFILE.forEach(function (k) {
          var v = f[k].value.trim();
          if (v !== (user[k] || '')) body[k] = v === '' ? null : v;
        });
        profileForm.querySelectorAll('[aria-invalid]').forEach(function (el) {
          el.removeAttribute('aria-invalid');
        });
        var raw = f.custom_fields.value.trim();
        if (raw !== '') {
          try {
            body.custom_fields = JSON.parse(raw);
          } catch (_) {
            f.custom_fields.setAttribute('aria-invalid', 'true');
            C.error('Custom fields: not valid JSON.');
            return;
          }
        }
        if (!Object.keys(body).length) return C.status('Nothing changed.');
        C.run(
          async function () {
            try {
              await C.api('PATCH', base, body);
            } catch (err) {
              (err.details || []).forEach(function (d) {
                var el = f[String(d.field).split('.')[0]];
                if (el) el.setAttribute('aria-invalid', 'true');
              });
              throw err;
            }
            await load();
            C.status('Profile saved.');
          },
          profileForm.querySelector('button[type=submit]'),
          'Saving…',
        );
      });

    if (resetBtn)
      resetBtn.addEventListener('click', function () {
        C.run(
          async function () {
            await C.api('POST', base + '/password-reset', {});
            C.status('A password reset link was sent to ' + user.email + '.');
          },
          resetBtn,
          'Sending…',
        );
      });

    function flag(button, key) {
      button.addEventListener('click', function () {
        var body = {};
        body[key] = !user[key];
        C.run(
          async function () {
            await C.api('PATCH', base + '/verification', body);
            await load();
            C.status(
              (key === 'email_verified' ? 'Email' : 'Phone number') +
                (body[key] ? ' marked verified.' : ' marked not verified.'),
            );
          },
          button,
          'Saving…',
        );
      });
    }
    if (emailBtn) flag(emailBtn, 'email_verified');
    if (phoneBtn) flag(phoneBtn, 'phone_number_verified');

    if (unlockBtn)
      unlockBtn.addEventListener('click', function () {
        C.run(
          async function () {
            var out = await C.api('POST', base + '/unlock', {});
            await load();
            C.status(out.unlocked ? 'Password sign-in unlocked.' : 'Nothing to unlock: no failed attempt was counted.');
          },
          unlockBtn,
          'Unlocking…',
        );
      });

    if (exportBtn)
      exportBtn.addEventListener('click', function () {
        C.run(
          async function () {
            var data = await C.api('GET', base + '/export');
            var url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
            var a = h('a', { href: url, download: 'ward-user-' + id + '.json', hidden: true });
            document.body.append(a);
            a.click();
            a.remove();
            setTimeout(function () {
              URL.revokeObjectURL(url);
            }, 1000);
            C.status('Export downloaded.');
          },
          exportBtn,
          'Exporting…',
        );
      });

    if (deleteBtn)
      deleteBtn.addEventListener('click', async function () {
        var who = user.email || user.phone_number || user.id;
        if (
          !(await C.confirm({
            title: 'Delete ' + who + '?',
            confirm: 'Delete user',
            danger: true,
            message:
              'Their profile, sessions, tokens, second factors, trusted devices, passkeys and linked identities ' +
              'are deleted for good; only the audit trail keeps a record. This cannot be undone.',
          }))
        )
          return;
        C.run(
          async function () {
            await C.api('DELETE', base);
            C.go('/console/users', 'User ' + who + ' deleted.');
          },
          deleteBtn,
          'Deleting…',
        );
      });

    await load();
  };
})();
