// The building blocks of the hosted account page (account.ts, account-leave.ts): what the page shows,
// and its sections, forms and inputs (every form posts back to Ward with the page's CSRF token).
import type { CustomFieldSetting } from '../../config/types.js';
import type { Language } from '../../errors/ward-error.js';
import { html, type SafeHtml } from '../../lib/html.js';
import type { AccountNotice } from './account-text.js';

export type Channel = 'email' | 'sms';

/** Where a message shows: beside the form it is about, or at the top. */
export type AccountSection =
  | 'page'
  | 'profile'
  | 'email'
  | 'phone'
  | 'phone_code'
  | 'password'
  | 'step_up'
  | 'app'
  | 'delete';

export interface AccountPageInput {
  language: Language;
  csrf: string;
  user: {
    email: string | null;
    emailVerified: boolean;
    phone: string | null;
    phoneVerified: boolean;
    hasPassword: boolean;
  };
  /** The user's authenticator app, when enabled, and their recovery codes left ("7 left"). */
  app?: { recoveryLeft: number };
  /** No app but a key registered as a second factor: its recovery codes left (they can be made again). */
  keyRecoveryLeft?: number;
  /** An authenticator app being set up: its QR code (SVG from the `qrcode` library), key and URI, shown once. */
  enrolment?: { qrSvg: string; secret: string; uri: string };
  /** Recovery codes just made: shown this once. */
  newCodes?: string[];
  /** Changes asked for and not confirmed yet (their link or code still works). */
  pending: { email: string | null; phone: string | null };
  notice?: AccountNotice;
  /** What went wrong with the last form, already in the page's language, and where to show it. */
  error?: { text: string; at: AccountSection };
  /** What the user typed, shown again (never a password). */
  values?: { email?: string; phone_number?: string };
  /** How many security keys or passkeys the user has (passkeys on): each answers a second factor. */
  keyCount?: number;
  /** A step-up is owed: one button per verified factor (its masked address), or the code form of one started. */
  stepUp?: {
    factors: Array<{ channel: Channel; to: string }>;
    /** The user has an authenticator app: its code (or a recovery code) confirms at once, nothing sent. */
    app?: boolean;
    started?: { stepUp: string; challengeId: string; channel: Channel };
    /** The user has a security key or passkey: a button starts a step-up it answers. */
    keys?: boolean;
    /** The step-up started for a key: its request options, for the page's script. */
    keyStarted?: { stepUp: string; options: unknown };
  };
  minLength: number;
  /** The third-party apps the user consented to (docs/consent.md), each with a form that withdraws it. */
  consents?: Array<{ clientId: string; name: string; scopes: string[] }>;
  /** The app that linked here (client_id): a link back to it, carried by every form. */
  back?: { clientId: string; name: string; href: string };
  /** "Delete my account" (when the account setting allows it) and "Download my data". */
  leave?: {
    deletion: boolean;
    /** Days before the erasure (0: at once). */
    graceDays: number;
    /** A user without a password asked for their code: where it went. */
    codeSent?: Channel;
  };
  /** "Where you're signed in" (account-sign-ins.ts): the live sessions, trusted devices, recent events. */
  signIns?: SignInsView;
  /**
   * "Your profile" (account-profile.ts): the form's values (stored, or as the last post typed them),
   * the problems of that post by input name (`missing` or `invalid`), the custom fields the user may write.
   */
  profile?: { values: Record<string, string>; errors?: Record<string, string>; fields: CustomFieldSetting[] };
}

/** What the page shows of the user's sign-ins (self-service/sign-ins.ts reads them). */
export interface SignInsView {
  sessions: Array<{
    id: string;
    browser: string | null;
    os: string | null;
    createdAt: number;
    lastUsedAt: number;
    current: boolean;
    /** The approximate place (a local GeoIP database), in the page's language; null: none shown. */
    place: { city: string | null; country: string | null } | null;
  }>;
  devices: Array<{ id: string; browser: string | null; os: string | null; createdAt: number; expiresAt: number }>;
  events: Array<{ type: string; at: number; by: 'user' | 'administrator' }>;
}

export const ACCOUNT_PATH = '/identity/v1/account';

export const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;
export const submit = (label: string, secondary = false) =>
  html`<button type="submit"${secondary && html` class="secondary"`}>${label}</button>`;
export const section = (id: string, heading: string, inner: SafeHtml) =>
  html`<section aria-labelledby="${id}-h"><h2 id="${id}-h">${heading}</h2>${inner}</section>`;

export function alertIn(p: AccountPageInput, at: AccountSection): SafeHtml | null {
  if (p.error?.at !== at) return null;
  return html`<p class="error" role="alert" id="${at}-error">${p.error.text}</p>`;
}

/** A labelled input, described by its hint (if any) and by the error of its section. */
export function input(
  p: AccountPageInput,
  at: AccountSection,
  f: { id: string; label: string; attrs: SafeHtml; hint?: string },
): SafeHtml {
  const ids = [...(f.hint ? [`${f.id}-hint`] : []), ...(p.error?.at === at ? [`${at}-error`] : [])];
  const described = ids.length > 0 && html` aria-describedby="${ids.join(' ')}"`;
  const hint = f.hint && html`<p class="muted" id="${f.id}-hint">${f.hint}</p>`;
  return html`<label for="${f.id}">${f.label}</label>\n<input id="${f.id}" ${f.attrs} required${described}>${hint}`;
}

export const CODE_ATTRS = html`name="verification_code" inputmode="numeric" autocomplete="one-time-code"`;

export function form(p: AccountPageInput, action: string, inner: SafeHtml): SafeHtml {
  const common = [hidden('csrf', p.csrf), p.back && hidden('client_id', p.back.clientId)];
  return html`<form method="post" action="${ACCOUNT_PATH}${action}" novalidate>${common}${inner}</form>`;
}
