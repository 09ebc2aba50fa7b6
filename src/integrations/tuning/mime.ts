/**
 * Speed-up `mime_writer` (docs/performance.md; plain path: nodemailer's composer for every email).
 * Ward's emails (codes, links, notices) as finished RFC 5322 / MIME messages (multipart/alternative: UTF-8 text
 * and HTML, each base64 in 76-character lines). Building it here costs a few µs; nodemailer's
 * composer (a tree of streams per message) cost about half of all the CPU of sending one, and
 * nodemailer then only speaks SMTP. Addresses this module cannot write safely (a local part that
 * needs quoting, non-ASCII local parts) are left to nodemailer's composer: `mailbox` says so.
 */
import { domainToASCII } from 'node:url';
import { randomId } from '../../lib/random.js';

export interface Mailbox {
  /** The display name ('' for none). */
  name: string;
  /** ASCII: a dot-atom local part, an ASCII (or punycode) domain. */
  address: string;
}

export interface RawMessage {
  from: Mailbox;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  date: Date;
}

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^${ATOM}(\\.${ATOM})*$`);
const DOMAIN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** `address` in the ASCII form SMTP and a header take as is, or null when it needs more than that. */
export function plainAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const local = address.slice(0, at);
  const domain = domainToASCII(address.slice(at + 1));
  return LOCAL.test(local) && DOMAIN.test(domain) && local.length <= 64 ? `${local}@${domain}` : null;
}

/** 'Name <a@b>' or 'a@b' (a From setting) as a Mailbox, or null when it is not that simple. */
export function mailbox(value: string): Mailbox | null {
  const m =
    /^\s*(?:"((?:[^"\\\r\n]|\\.)*)"|([^"<>\r\n]*?))\s*<([^<>\s]+)>\s*$/.exec(value) ??
    /^\s*()()([^<>\s"]+)\s*$/.exec(value);
  if (!m) return null;
  const address = plainAddress(m[3]!);
  if (!address) return null;
  const name = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? '');
  return { name: name.trim(), address };
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

/** A header value as RFC 2047 encoded words (UTF-8, base64) of at most 75 characters, folded. */
function encodedWords(value: string): string {
  const words: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const ch of value) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > 39) {
      words.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += ch;
    bytes += n;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join('\r\n ');
}

/** Unstructured text (Subject): as is when short printable ASCII, else encoded words. */
function unstructured(value: string): string {
  return ASCII_PRINTABLE.test(value) && value.length <= 70 && value.trim() === value ? value : encodedWords(value);
}

/** A display name: an atom phrase as is, a quoted string, or encoded words. */
function displayName(name: string): string {
  if (/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]+$/.test(name) && name.length <= 60) return name;
  if (ASCII_PRINTABLE.test(name) && name.length <= 60) return `"${name.replace(/["\\]/g, '\\$&')}"`;
  return encodedWords(name);
}

const formatMailbox = (m: Mailbox) => (m.name ? `${displayName(m.name)} <${m.address}>` : m.address);

/**
 * Base64 in lines of 76 characters (RFC 2045), by slicing: a regular expression scanning the text was
 * 1% of the step-up flow.
 */
const base64Lines = (s: string) => {
  const b = Buffer.from(s, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b.length; i += 76) lines.push(b.slice(i, i + 76));
  return lines.join('\r\n');
};

/** `to` must be a plainAddress result; header values are single-line (no CR or LF). */
export function buildMessage(m: RawMessage): string {
  const id = randomId();
  const boundary = `=_ward_${id}`;
  const domain = m.from.address.slice(m.from.address.lastIndexOf('@') + 1);
  const extra = Object.entries(m.headers)
    .map(([k, v]) => `${k}: ${unstructured(v)}\r\n`)
    .join('');
  const part = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\n` +
    `Content-Transfer-Encoding: base64\r\n\r\n${base64Lines(body)}\r\n`;
  return (
    `From: ${formatMailbox(m.from)}\r\n` +
    `To: ${m.to}\r\n` +
    `Subject: ${unstructured(m.subject)}\r\n` +
    `Date: ${m.date.toUTCString().replace(/GMT$/, '+0000')}\r\n` +
    `Message-ID: <${id}@${domain}>\r\n` +
    extra +
    `MIME-Version: 1.0\r\n` +
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"\r\n\r\n` +
    part('text/plain', m.text) +
    part('text/html', m.html) +
    `--${boundary}--\r\n`
  );
}

export interface MailParts {
  subject: string;
  text: string;
  html: string;
}

/** What nodemailer sends as is: the envelope and the finished message. */
export interface RawMail {
  envelope: { from: string; to: string[] };
  raw: string;
}

/**
 * The composer the mailer uses for a sender (`mailer.ts`): a finished message for a recipient, or
 * null when the sender or the recipient needs nodemailer's composer.
 */
export function ownMimeWriter(from: string) {
  const sender = mailbox(from);
  return (to: string, content: MailParts, headers: Record<string, string>): RawMail | null => {
    const rcpt = sender ? plainAddress(to) : null;
    if (!sender || !rcpt) return null;
    return {
      envelope: { from: sender.address, to: [rcpt] },
      raw: buildMessage({ from: sender, to: rcpt, ...content, headers, date: new Date() }),
    };
  };
}

export type MimeWriter = typeof ownMimeWriter;
