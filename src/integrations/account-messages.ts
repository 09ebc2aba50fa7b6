/**
 * The messages of account self-service, in every language of src/texts (`account` in
 * src/texts/<lang>/messages.ts): a code and link to confirm an email address (at signup, on
 * request, or a new address), a code to confirm a phone number, a password
 * reset (link and code by email, code by SMS), and the notices that follow a change (email, phone,
 * password). Each is a subject, a plain text, a self-contained HTML page (every value escaped) and an
 * SMS of one segment where it can be.
 *
 * An operator may replace any of them from a folder (`WARD_TEMPLATES_DIR`): `<kind>.<locale>.subject.txt`,
 * `<kind>.<locale>.txt`, `<kind>.<locale>.html`, `<kind>.<locale>.sms.txt`, each optional, with the
 * placeholders {{app}}, {{code}}, {{link}}, {{expires}}, {{address}} and {{when}} (escaped in HTML).
 * The folder is read once and again only when a file changes (template-folder.ts).
 */
import type { AccountMessageKind, AccountValues as Values } from '../texts/en/messages.js';
import { textsIn } from '../texts/texts.js';
import { type TemplateFolder, templateFolder } from './template-folder.js';
import {
  cleanAppName,
  describeDuration,
  emailHtml,
  escapeHtml,
  fitsOneSms,
  resolveLocale,
  type MessageLocale,
} from './messages.js';

export type { AccountMessageKind } from '../texts/en/messages.js';

export const ACCOUNT_MESSAGE_KINDS: readonly AccountMessageKind[] = [
  'verify_email',
  'change_email',
  'reset_password',
  'verify_phone',
  'change_phone',
  'email_changed',
  'phone_changed',
  'password_changed',
  'passwordless',
  'account_recovery',
  'passkeys_reset',
  'invitation',
  'delete_account',
  'account_deletion_scheduled',
  'account_deleted',
  'confirm_consent',
  'claim_profile',
];

export interface AccountMessageInput {
  kind: AccountMessageKind;
  code?: string;
  /** The link to open (built from the issuer), when the message has one. */
  link?: string;
  /** Lifetime of the code, seconds. */
  codeTtl?: number;
  /** Lifetime of the link, seconds. */
  linkTtl?: number;
  /** The address concerned, already masked where the reader is not its owner (confirm_consent: the consent's title). */
  address?: string;
  /** When the change happened (ms since the epoch), for notices; shown in UTC. */
  at?: number;
  locale?: string;
  appName?: string;
}

export interface AccountMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

const whenOf = (at: number, dateLocale: string) =>
  `${new Intl.DateTimeFormat(dateLocale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(at))} UTC`;

/** An operator's replacement texts for one kind and locale, from the templates folder. */
function overrides(folder: TemplateFolder | undefined, kind: AccountMessageKind, locale: MessageLocale) {
  if (!folder) return {};
  const read = (suffix: string) => folder.file(`${kind}.${locale}.${suffix}`);
  return { subject: read('subject.txt')?.trim(), text: read('txt'), html: read('html'), sms: read('sms.txt')?.trim() };
}

const fill = (template: string, v: Values, quote: (s: string) => string) =>
  template.replace(/\{\{(app|code|link|expires|address|when)\}\}/g, (_, k: keyof Values) => quote(v[k]));

/** `templates`: the operator's folder (WARD_TEMPLATES_DIR), as a path or as its folder object. */
export function renderAccountMessage(input: AccountMessageInput, templates?: string | TemplateFolder): AccountMessage {
  if (!ACCOUNT_MESSAGE_KINDS.includes(input.kind)) throw new TypeError(`unknown message ${String(input.kind)}`);
  const locale = resolveLocale(input.locale);
  const texts = textsIn(locale).messages;
  const t = texts.account[input.kind];
  const v: Values = {
    app: cleanAppName(input.appName),
    code: input.code ?? '',
    link: input.link ?? '',
    expires: describeDuration(input.codeTtl ?? 900, locale),
    linkExpires: describeDuration(input.linkTtl ?? 3600, locale),
    address: input.address ?? '',
    when: whenOf(input.at ?? Date.now(), texts.dateLocale),
  };
  const subject = t.subject(v);
  const codeLine = v.code && t.codeLead ? `${t.codeLead} ${v.expires}${texts.codeLineEnd}` : '';
  const text = [
    t.lead(v),
    '',
    ...(v.link ? [v.link, ''] : []),
    ...(codeLine ? [codeLine, '', `    ${v.code}`, ''] : []),
    t.after(v),
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px">${e(t.lead(v))}</p>`,
    ...(v.link
      ? [
          `<p style="margin:0 0 16px"><a href="${e(v.link)}" ` +
            `style="display:inline-block;background:#0969da;color:#ffffff;padding:10px ` +
            `16px;border-radius:6px;text-decoration:none">${e(t.button ?? v.link)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;color:#57606a">${e(v.link)}</p>`,
        ]
      : []),
    ...(codeLine
      ? [
          `<p style="margin:0 0 8px">${e(codeLine)}</p>`,
          '<p style="margin:0 0 16px;font-family:Menlo,Consolas,monospace;font-size:28px;font-weight:bold;' +
            `letter-spacing:4px">${e(v.code)}</p>`,
        ]
      : []),
    `<p style="margin:0;color:#57606a;font-size:13px">${e(t.after(v))}</p>`,
  ]);
  const full = t.sms(v);
  const sms = fitsOneSms(full) || !v.code ? full : `${v.code}: ${v.app}`;
  const o = overrides(typeof templates === 'string' ? templateFolder(templates) : templates, input.kind, locale);
  const plain = (s: string) => s;
  return {
    subject: o.subject ? fill(o.subject, v, plain) : subject,
    text: o.text ? fill(o.text, v, plain) : text,
    html: o.html ? fill(o.html, v, e) : html,
    sms: o.sms ? fill(o.sms, v, plain) : sms,
  };
}
