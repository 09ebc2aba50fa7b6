// Ward console, confirmation dialog (a classic script after console.js): WardConsole.confirm(opts)
// opens a modal <dialog> labelled by its title and described by its message, moves the focus into it
// (on Cancel: the safe choice), lets Escape or Cancel dismiss it, and gives the focus back to the
// element that opened it. It resolves true only when the confirming button is pressed.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h;
  var seq = 0;

  /** confirm({ title, message, confirm: 'Revoke', danger: true }) -> Promise<boolean> */
  C.confirm = function (opts) {
    var n = ++seq,
      opener = document.activeElement;
    var cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
    var ok = h('button', { type: 'button', class: opts.danger ? 'danger solid' : '' }, opts.confirm || 'Confirm');
    var dialog = h(
      'dialog',
      {
        class: 'confirm',
        'aria-labelledby': 'dlg-title-' + n,
        'aria-describedby': 'dlg-msg-' + n,
        'aria-modal': 'true',
      },
      h('h2', { id: 'dlg-title-' + n }, opts.title),
      h('p', { id: 'dlg-msg-' + n }, opts.message),
      h('div', { class: 'actions' }, cancel, ok),
    );
    document.body.append(dialog);
    return new Promise(function (resolve) {
      var answer = false;
      ok.addEventListener('click', function () {
        answer = true;
        dialog.close();
      });
      cancel.addEventListener('click', function () {
        dialog.close();
      });
      // Escape fires "cancel" then "close": the answer stays false.
      dialog.addEventListener('close', function () {
        dialog.remove();
        if (opener && typeof opener.focus === 'function' && document.contains(opener)) opener.focus();
        resolve(answer);
      });
      dialog.showModal();
      cancel.focus();
    });
  };
})();
