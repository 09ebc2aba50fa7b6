// The hosted "Your account" page (GET /identity/v1/account), in the user's language: the user's email
// address and phone number, their profile (account-profile.ts), and the forms that change them and the
// password; "Confirm it's you" first when a step-up is owed (the profile needs none). Every form posts
// back to Ward with the page's CSRF token.
import type { Language } from '../../errors/ward-error.js';
import { html, joinHtml, trustedHtml, type Page, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { leaveSections } from './account-leave.js';
import { signInsSection } from './account-sign-ins.js';
import { profileSection } from './account-profile.js';
import { type AccountPageInput, alertIn, CODE_ATTRS, form, hidden, input, section, submit } from './account-parts.js';
import { accountText } from './account-text.js';
import { keyScript } from './second-factor.js';
import { ACCOUNT_PATH } from './account-parts.js';

export {
  ACCOUNT_PATH,
  type AccountPageInput,
  type AccountSection,
  type Channel,
  type SignInsView,
} from './account-parts.js';

function summary(p: AccountPageInput): SafeHtml {
  const t = accountText(p.language);
  const line = (label: string, value: string | null, verified: boolean) => {
    const state = html`<span class="muted">(${verified ? t.confirmed : t.unconfirmed})</span>`;
    return html`<dt>${label}</dt><dd>${value === null ? t.none : html`${value} ${state}`}</dd>`;
  };
  const { user } = p;
  const left = p.app?.recoveryLeft ?? p.keyRecoveryLeft;
  const codes =
    left === undefined ? null : html`<dt>${t.recoveryCodes}</dt><dd id="recovery-left">${t.recoveryLeft(left)}</dd>`;
  const app = p.app && html`<dt>${t.authenticatorApp}</dt><dd>${t.appOn}</dd>${codes}`;
  // Security keys and passkeys answer a second factor too (the hosted page and "Confirm it's you").
  const keys = p.keyCount
    ? html`<dt>${t.securityKeys}</dt><dd id="security-keys">${t.keysCount(p.keyCount)}</dd>`
    : null;
  // A key registered as a second factor brings recovery codes too (listed with the keys, no app).
  return html`<dl>${line(t.email, user.email, user.emailVerified)}${line(t.phone, user.phone, user.phoneVerified)}${app}${keys}${p.app ? null : codes}</dl>`;
}

/** "Confirm it's you": one button per verified factor, or the code form of the step-up started. */
function stepUpSection(p: AccountPageInput, s: NonNullable<AccountPageInput['stepUp']>): SafeHtml {
  const t = accountText(p.language);
  const started = s.started;
  const key = textsIn(p.language).pages.secondFactor;
  if (s.keyStarted)
    return section(
      'step-up',
      t.stepUpHeading,
      html`${alertIn(p, 'step_up')}<form method="post" action="${ACCOUNT_PATH}/step-up/key/verify" id="key-form">
${hidden('csrf', p.csrf)}${p.back ? hidden('client_id', p.back.clientId) : ''}${hidden('step_up', s.keyStarted.stepUp)}
<input type="hidden" name="assertion" value="">
<button type="button" id="use-key">${key.keyButton}</button></form>`,
    );
  if (!started) {
    const buttons = s.factors.map((f) =>
      form(p, '/step-up', html`${hidden('auth_type', f.channel)}${submit(t.sendCode(f.channel, f.to))}`),
    );
    // An authenticator app (or a recovery code) answers at once: no step-up to start, nothing sent.
    const typed = (type: string, id: string, label: string, attrs: SafeHtml) =>
      form(
        p,
        '/step-up/verify',
        html`${hidden('auth_type', type)}${input(p, 'step_up', { id, label, attrs })}${submit(t.verify)}`,
      );
    if (s.keys) buttons.unshift(form(p, '/step-up/key', submit(key.useKey)));
    if (s.app) {
      buttons.unshift(typed('totp', 'step-up-app-code', t.appCode, CODE_ATTRS));
      buttons.push(
        typed(
          'recovery_code',
          'step-up-recovery-code',
          t.recoveryCode,
          html`name="verification_code" autocomplete="off"`,
        ),
      );
    }
    return section(
      'step-up',
      t.stepUpHeading,
      html`${alertIn(p, 'step_up')}<p>${t.stepUpLead}</p>${joinHtml(buttons, html`\n`)}`,
    );
  }
  const which = html`${hidden('step_up', started.stepUp)}${hidden('auth_type', started.channel)}`;
  const code = input(p, 'step_up', { id: 'step-up-code', label: t.verificationCode, attrs: CODE_ATTRS });
  const verify = form(
    p,
    '/step-up/verify',
    html`${which}${hidden('challenge_id', started.challengeId)}${code}${submit(t.verify)}`,
  );
  const resend = form(p, '/step-up', html`${which}${submit(t.resend, true)}`);
  return section(
    'step-up',
    t.stepUpHeading,
    html`<p>${t.codeSentTo(started.channel)}</p>${alertIn(p, 'step_up')}${verify}${resend}`,
  );
}

function emailSection(p: AccountPageInput): SafeHtml {
  const t = accountText(p.language);
  const email = input(p, 'email', {
    id: 'new-email',
    label: t.newEmail,
    attrs: html`name="email" type="email" autocomplete="email" value="${p.values?.email ?? ''}"`,
  });
  return section(
    'email',
    t.changeEmail,
    html`${alertIn(p, 'email')}${form(p, '/email', html`${email}${submit(t.sendLink)}`)}`,
  );
}

/** The code form of a pending phone number (a new one, or the current one while unverified). */
function phoneCodeForm(p: AccountPageInput, pending: string): SafeHtml {
  const t = accountText(p.language);
  const code = input(p, 'phone_code', { id: 'phone-code', label: t.smsCode, attrs: CODE_ATTRS });
  const lead = html`<p>${t.enterPhoneCode(pending)}</p>`;
  const verify = form(p, '/phone/verify', html`${hidden('phone_number', pending)}${code}${submit(t.confirmPhone)}`);
  return html`${alertIn(p, 'phone_code')}${lead}${verify}`;
}

function phoneSection(p: AccountPageInput): SafeHtml {
  const t = accountText(p.language);
  const pending = p.pending.phone;
  const phone = input(p, 'phone', {
    id: 'new-phone',
    label: t.newPhone,
    attrs: html`name="phone_number" type="tel" autocomplete="tel" placeholder="+33612345678" value="${p.values?.phone_number ?? ''}"`,
    hint: t.phoneHint,
  });
  const ask = form(p, '/phone', html`${phone}${submit(t.sendSms, pending !== null)}`);
  return section('phone', t.changePhone, html`${pending && phoneCodeForm(p, pending)}${alertIn(p, 'phone')}${ask}`);
}

function passwordSection(p: AccountPageInput): SafeHtml {
  const t = accountText(p.language);
  const password = (id: string, label: string, attrs: SafeHtml, hint?: string) =>
    input(p, 'password', { id, label, attrs: html`type="password" ${attrs}`, hint });
  const fields = joinHtml(
    [
      p.user.hasPassword &&
        password('old-password', t.currentPassword, html`name="old_password" autocomplete="current-password"`),
      password(
        'new-password',
        t.newPassword,
        html`name="password" autocomplete="new-password" minlength="${p.minLength}"`,
        t.passwordHint(p.minLength),
      ),
      password(
        'password-confirmation',
        t.confirmPassword,
        html`name="password_confirmation" autocomplete="new-password"`,
      ),
    ],
    html`\n`,
  );
  return section(
    'password',
    t.changePassword,
    html`${alertIn(p, 'password')}${form(p, '/password', html`${fields}${submit(t.savePassword)}`)}`,
  );
}

/** The apps the user consented to: what each may see, and a button that withdraws it. */
function consentsSection(p: AccountPageInput): SafeHtml | null {
  if (!p.consents?.length) return null;
  const t = textsIn(p.language).consent;
  const items = p.consents.map(
    (c) =>
      html`<li><strong>${c.name}</strong><ul>${c.scopes.map((s) => html`<li>${t.scopes[s] ?? s}</li>`)}</ul>${form(
        p,
        '/consents/revoke',
        html`${hidden('consent_client_id', c.clientId)}${submit(t.revoke, true)}`,
      )}</li>`,
  );
  return section('consents', t.accountHeading, html`<p class="muted">${t.accountLead}</p><ul>${items}</ul>`);
}

/** Recovery codes just made, shown once (even when "Confirm it's you" is owed for what follows). */
function newCodesBlock(p: AccountPageInput): SafeHtml | null {
  if (!p.newCodes) return null;
  const t = accountText(p.language);
  return html`<p role="status">${t.recoveryShown}</p><ul id="recovery-codes">${p.newCodes.map((c) => html`<li><code>${c}</code></li>`)}</ul>`;
}

/** The authenticator app: set it up (QR code, key, first code), or remove it; new recovery codes. */
function appSection(p: AccountPageInput): SafeHtml {
  const t = accountText(p.language);
  let inner: SafeHtml;
  if (p.app) {
    inner = html`${form(p, '/recovery-codes', submit(t.newRecoveryCodes, true))}${form(p, '/app/remove', submit(t.appRemove, true))}`;
  } else if (p.enrolment) {
    const code = input(p, 'app', { id: 'app-code', label: t.appCode, attrs: CODE_ATTRS });
    // The SVG is the qrcode library's drawing of the URI (paths only, no script, nothing from the user).
    inner = html`<p>${t.appScan}</p><figure id="app-qr">${trustedHtml(p.enrolment.qrSvg)}</figure>
<p>${t.appKey}: <code id="app-key">${p.enrolment.secret}</code></p><p class="muted"><code id="app-uri">${p.enrolment.uri}</code></p>
${form(p, '/app/verify', html`${code}${submit(t.appEnable)}`)}`;
  } else {
    // With a key registered as a second factor, its recovery codes can be made again.
    const again = p.keyRecoveryLeft !== undefined ? form(p, '/recovery-codes', submit(t.newRecoveryCodes, true)) : null;
    inner = html`<p>${t.appLead}</p>${form(p, '/app', submit(t.appSetUp))}${again}`;
  }
  return section('app', t.appHeading, html`${alertIn(p, 'app')}${inner}`);
}

/** The account page of a signed-in user. */
export function accountPage(status: number, p: AccountPageInput): Page {
  const t = accountText(p.language);
  const notice = p.notice && html`<p role="status" id="notice">${t.notices[p.notice](p.pending)}</p>`;
  // While a step-up is owed, a pending phone code may still be typed: its change was asked for after one.
  const changes = p.stepUp
    ? html`${stepUpSection(p, p.stepUp)}${
        p.pending.phone && section('phone', t.changePhone, phoneCodeForm(p, p.pending.phone))
      }`
    : joinHtml([emailSection(p), phoneSection(p), passwordSection(p), appSection(p)], html`\n`);
  const leave = !p.stepUp && leaveSections(p);
  const back = p.back && html`<p><a href="${p.back.href}">${t.back(p.back.name)}</a></p>`;
  return {
    status,
    lang: p.language,
    title: t.title,
    ...(p.stepUp?.keyStarted ? { script: keyScript(p.stepUp.keyStarted.options) } : {}),
    body: html`<h1>${t.title}</h1>${notice}${alertIn(p, 'page')}${newCodesBlock(p)}${summary(p)}\n${profileSection(p)}${changes}${signInsSection(p)}${consentsSection(p)}${leave}${back}`,
  };
}

/** Nobody is signed in in this browser (no live SSO session). */
export function signedOutPage(language: Language): Page {
  const t = accountText(language);
  return {
    status: 401,
    lang: language,
    title: t.signedOut,
    body: html`<h1>${t.signedOut}</h1><p>${t.signedOutLead}</p>`,
  };
}
