// The account page's "Where you're signed in" (issue 38, item 5; docs/self-service.md): the user's live
// sessions (browser and system read from the User-Agent, when each began and was last used, this one
// marked), each with a "Sign out" form, "Sign out everywhere else", the trusted devices with "Stop
// trusting", and the recent security events from the audit trail. The approximate place of a session is
// shown only when a local GeoIP database is configured (WARD_GEOIP_DATABASE, self-service/places.ts).
// Every form posts with the page's CSRF token.
import type { Language } from '../../errors/ward-error.js';
import { html, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { type AccountPageInput, form, hidden, section, type SignInsView, submit } from './account-parts.js';
import { accountText } from './account-text.js';

/** The group of words each audit action of self-service/sign-ins.ts reads as. */
const EVENT_GROUPS: Record<string, string> = {
  'login.succeeded': 'signIn',
  'passkey.login': 'signIn',
  'login.locked': 'locked',
  'account.password_changed': 'password',
  'account.password_reset': 'password',
  'account.recovered': 'password',
  'user.password_reset': 'password',
  'account.email_changed': 'email',
  'account.phone_changed': 'phone',
  'mfa.credential_added': 'factorAdded',
  'mfa.factor_added': 'factorAdded',
  'passkey.added': 'factorAdded',
  'mfa.credential_removed': 'factorRemoved',
  'mfa.factor_removed': 'factorRemoved',
  'passkey.removed': 'factorRemoved',
  'user.factor_removed': 'factorRemoved',
  'user.passkey_removed': 'factorRemoved',
  'user.factors_reset': 'factorsReset',
  'mfa.recovery_code_used': 'recoveryCodeUsed',
  'mfa.recovery_codes_generated': 'recoveryCodes',
  'session.ended': 'sessionsEnded',
  'sessions.others_ended': 'sessionsEnded',
  'user.sessions_revoked': 'sessionsEnded',
};

const when = (language: Language, at: number) =>
  `${new Intl.DateTimeFormat(textsIn(language).messages.dateLocale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at)} UTC`;

function sessionsList(p: AccountPageInput, s: SignInsView): SafeHtml {
  const t = accountText(p.language).signIns;
  const items = s.sessions.map((x) => {
    const name = t.device(x.browser, x.os);
    const mark = x.current && html` <strong class="this-device">(${t.thisDevice})</strong>`;
    // "City, Country" (or the country alone) from a local GeoIP database; nothing without one.
    const where = x.place && [x.place.city, x.place.country].filter(Boolean).join(', ');
    const place = where && html`<br><span class="muted place">${t.placeOf(where)}</span>`;
    const end =
      !x.current &&
      form(
        p,
        '/sessions/end',
        html`${hidden('session', x.id)}<button type="submit" class="secondary" aria-label="${t.signOutLabel(name)}">${t.signOut}</button>`,
      );
    return html`<li data-session="${x.current ? 'current' : 'other'}"><span>${name}</span>${mark}${place}<br><span class="muted">${t.signedIn(when(p.language, x.createdAt))}, ${t.lastUsed(when(p.language, x.lastUsedAt))}</span>${end}</li>`;
  });
  const others = s.sessions.some((x) => !x.current);
  const everywhere = others ? form(p, '/sessions/others', submit(t.othersButton, true)) : html`<p>${t.noOthers}</p>`;
  const note = !s.sessions.some((x) => x.place) && html`<p class="muted">${t.place}</p>`;
  return html`<ul id="sessions">${items}</ul>${everywhere}${note}`;
}

function devicesBlock(p: AccountPageInput, s: SignInsView): SafeHtml | null {
  if (!s.devices.length) return null;
  const t = accountText(p.language).signIns;
  const items = s.devices.map((d) => {
    const name = t.device(d.browser, d.os);
    const forget = form(
      p,
      '/trusted-devices/revoke',
      html`${hidden('device', d.id)}<button type="submit" class="secondary" aria-label="${t.forgetLabel(name)}">${t.forget}</button>`,
    );
    return html`<li><span>${name}</span><br><span class="muted">${t.trusted(when(p.language, d.createdAt), when(p.language, d.expiresAt))}</span>${forget}</li>`;
  });
  return html`<h3 id="devices-h">${t.devicesHeading}</h3><p class="muted">${t.devicesLead}</p><ul id="trusted-devices">${items}</ul>`;
}

function eventsBlock(p: AccountPageInput, s: SignInsView): SafeHtml {
  const t = accountText(p.language).signIns;
  const items = s.events.map((e) => {
    const label = t.events[EVENT_GROUPS[e.type] ?? ''] ?? e.type;
    const by = e.by === 'administrator' && html` <span class="muted">${t.byAdministrator}</span>`;
    return html`<li><time datetime="${new Date(e.at).toISOString()}">${when(p.language, e.at)}</time>: ${label}${by}</li>`;
  });
  return html`<h3 id="events-h">${t.eventsHeading}</h3>${
    items.length ? html`<ul id="security-events">${items}</ul>` : html`<p>${t.noEvents}</p>`
  }`;
}

/** The section, when the page has it. */
export function signInsSection(p: AccountPageInput): SafeHtml | null {
  if (!p.signIns) return null;
  const t = accountText(p.language).signIns;
  return section(
    'sign-ins',
    t.heading,
    html`<p>${t.lead}</p>${sessionsList(p, p.signIns)}${devicesBlock(p, p.signIns)}${eventsBlock(p, p.signIns)}`,
  );
}
