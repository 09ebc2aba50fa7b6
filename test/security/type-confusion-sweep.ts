// The machinery of the LG-04 type-confusion sweep (type-confusion.test.ts): the wrong-typed values
// for JSON and form fields, the whole-body shapes, and a sweeper bound to one Ward that sends each
// variant of a valid body and checks the answer (a clear 4xx JSON error with error_message_key and
// no internals; HTML pages by contract: never 5xx, nothing internal). Problems are collected, not
// thrown, so one run reports them all; 2xx/3xx answers are kept as diagnostics.
import type { TestContext } from 'node:test';
import type { Response } from 'undici';
import type { Browser } from '../helpers/browser.js';
import type { TestWard } from '../helpers/ward.js';
import { INTERNALS } from './support.js';

/** For HTML pages (which may name a script file): only what a leaked error would look like. */
const HTML_INTERNALS =
  /\bat [\w.<>]+ \(|node_modules|sqlite|kysely|SyntaxError|Unexpected token|JSON at position|FST_|TypeError|ReferenceError|RangeError/i;
const CLEAR_4XX = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429]);

/** The wrong-typed values, as JSON text (1e309 and 1e999 are Infinity once parsed). */
const JSON_VALUES: Array<[string, string]> = [
  ['null', 'null'],
  ['true', 'true'],
  ['12345', '12345'],
  ['-1', '-1'],
  ['1e309', '1e309'],
  ['1e999', '1e999'],
  ['[]', '[]'],
  ['["a","b"]', '["a","b"]'],
  ['{}', '{}'],
  ['{"$ne":""}', '{"$ne":""}'],
  ['""', '""'],
  ['10,000-character string', JSON.stringify('x'.repeat(10_000))],
  ['NUL and unpaired surrogate', '"a\\u0000b\\ud800c"'],
  ['array nested 5,000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`],
];

/** The same ideas for a form field (raw, already encoded): `k` is the encoded field name. */
const FORM_VALUES: Array<[string, (k: string) => string]> = [
  ['empty', (k) => `${k}=`],
  ['bare name', (k) => k],
  ['repeated', (k) => `${k}=a&${k}=b`],
  ['bracket operator', (k) => `${k}[$ne]=`],
  ['null', (k) => `${k}=null`],
  ['12345', (k) => `${k}=12345`],
  ['1e999', (k) => `${k}=1e999`],
  ['[] {}', (k) => `${k}=%5B%5D%7B%7D`],
  ['10,000 characters', (k) => `${k}=${'x'.repeat(10_000)}`],
  ['NUL', (k) => `${k}=a%00b`],
  ['unpaired surrogate as UTF-8', (k) => `${k}=a%ED%A0%80b`],
  ['malformed percent', (k) => `${k}=%E0%A4%A&x=%`],
  ['lone percent', (k) => `${k}=%`],
];

/**
 * On PostgreSQL the sweep keeps only the values that arrive as strings: the others are refused (or
 * ignored) in JavaScript the same way on either engine, while a string may reach the database, whose
 * text type cannot hold a NUL (SQLite's can).
 */
const STRING_VALUES = new Set([
  '""',
  '10,000-character string',
  'NUL and unpaired surrogate',
  'empty',
  '10,000 characters',
  'NUL',
  'unpaired surrogate as UTF-8',
  'malformed percent',
  'lone percent',
]);

export type Body = Record<string, unknown>;

export interface Target {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** A fresh valid-looking body (may mint a code). */
  body: (field?: string) => Body | Promise<Body>;
  /** The fields to confuse, dotted for nested ones (data.email). */
  fields: string[];
  headers?: () => Record<string, string>;
  /** Sent with this browser's cookies (and its jar keeps what comes back). */
  browser?: Browser;
  encodings?: Array<'json' | 'form'>;
  /** A hosted page: HTML answers are the contract. */
  html?: boolean;
  /** Sees every answer (e.g. to follow a rotated refresh token). */
  onAnswer?: (status: number, text: string) => void;
}

const SENTINEL = '\u0001type-confusion\u0001';

function withValue(body: Body, field: string, raw: string): string {
  const copy = structuredClone(body);
  const path = field.split('.');
  let at: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[path[path.length - 1]!] = SENTINEL;
  return JSON.stringify(copy).replace(JSON.stringify(SENTINEL), () => raw);
}

function formWithout(body: Body, field: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) if (k !== field) q.append(k, String(v));
  return q.toString();
}

const joinForm = (...parts: string[]) => parts.filter(Boolean).join('&');

/** Whole-body shapes, as JSON text, from a valid body. */
function jsonShapes(body: Body): Array<[string, string]> {
  const pairs = Object.entries(body).map(([k, v]) => [JSON.stringify(k), JSON.stringify(v)] as const);
  return [
    ['body []', '[]'],
    ['body "string"', '"string"'],
    ['body 123', '123'],
    ['body null', 'null'],
    ['body {}', '{}'],
    [
      'body with unknown fields',
      JSON.stringify({ ...body, zz_unknown: { a: [1, { b: null }] }, '': 1, 'a.b': true, $where: '1' }),
    ],
    ['every field twice', `{${pairs.map(([k, v]) => `${k}:${v},${k}:${v}`).join(',')}}`],
    ['every field twice, then {"$ne":""}', `{${pairs.map(([k, v]) => `${k}:${v},${k}:{"$ne":""}`).join(',')}}`],
  ];
}

function formShapes(body: Body): Array<[string, string]> {
  const valid = formWithout(body, '');
  return [
    ['empty form', ''],
    ['form of garbage', '%%%&&&==='],
    ['every field twice', joinForm(valid, valid)],
    ['form with unknown fields', joinForm(valid, 'zz_unknown=1&%5B%5D=2&=3')],
  ];
}

/** A sweeper for one Ward: `stats` counts the requests and keeps the accepted ones. */
export function createSweeper(ward: TestWard, engine: 'sqlite' | 'postgres') {
  const stats = { sent: 0, accepted: [] as string[] };

  /** Sends one request and checks its answer; a problem is returned as a line, not thrown (all are reported). */
  async function probe(t: Target, body: string, type: string, what: string): Promise<string | null> {
    const method = t.method ?? 'POST';
    const label = `${method} ${t.path.split('?')[0]} ${what}`;
    const headers = {
      ...(method === 'GET' ? {} : { 'content-type': type }),
      ...(t.headers?.() ?? {}),
      ...(t.html ? { origin: ward.url } : {}),
    };
    const init = { method, body: method === 'GET' ? undefined : body, headers, signal: AbortSignal.timeout(15_000) };
    stats.sent++;
    let res: Response;
    try {
      res = t.browser ? await t.browser.request(t.path, init) : await ward.fetch(t.path, init);
    } catch (e) {
      return `${label}: no answer (${(e as Error).name}: ${(e as Error).message})`;
    }
    const text = await res.text();
    t.onAnswer?.(res.status, text);
    const ctype = res.headers.get('content-type') ?? '';
    if (res.status >= 500) return `${label}: ${res.status} ${text.slice(0, 300)}`;
    if (t.html && !ctype.startsWith('application/json')) {
      if (HTML_INTERNALS.test(text)) return `${label}: ${res.status} page shows internals`;
      if (res.status < 400) stats.accepted.push(`${label} -> ${res.status}`);
      return null;
    }
    if (res.status < 400) {
      stats.accepted.push(`${label} -> ${res.status}`);
      return null;
    }
    if (!CLEAR_4XX.has(res.status)) return `${label}: unexpected status ${res.status} ${text.slice(0, 200)}`;
    if (!ctype.startsWith('application/json')) return `${label}: ${res.status} with content-type ${ctype}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `${label}: ${res.status} body is not JSON: ${text.slice(0, 200)}`;
    }
    if (typeof (parsed as { error_message_key?: unknown })?.error_message_key !== 'string')
      return `${label}: ${res.status} no error_message_key: ${text.slice(0, 200)}`;
    if (INTERNALS.test(text)) return `${label}: ${res.status} body shows internals: ${text.slice(0, 300)}`;
    return null;
  }

  /** Sweeps one endpoint; its problems are added to `problems` (each test asserts once, at its end, so one run shows them all). */
  async function sweep(ctx: TestContext, problems: string[], t: Target): Promise<void> {
    const note = (p: string | null) => p && problems.push(p);
    const jsonValues = engine === 'postgres' ? JSON_VALUES.filter(([name]) => STRING_VALUES.has(name)) : JSON_VALUES;
    const formValues = engine === 'postgres' ? FORM_VALUES.filter(([name]) => STRING_VALUES.has(name)) : FORM_VALUES;
    for (const encoding of t.encodings ?? ['json']) {
      if (encoding === 'json') {
        for (const field of t.fields) {
          for (const [name, raw] of jsonValues)
            note(
              await probe(t, withValue(await t.body(field), field, raw), 'application/json', `JSON ${field}=${name}`),
            );
          // A well-formed value with a NUL appended (passes a shape check, e.g. an email address).
          const body = await t.body(field);
          const current = field.split('.').reduce<unknown>((o, k) => (o as Body | undefined)?.[k], body);
          if (typeof current === 'string')
            note(
              await probe(
                t,
                withValue(body, field, JSON.stringify(`${current}\u0000`)),
                'application/json',
                `JSON ${field}=valid value + NUL`,
              ),
            );
        }
        for (const [name, raw] of jsonShapes(await t.body()))
          note(await probe(t, raw, 'application/json', `JSON ${name}`));
      } else {
        const type = 'application/x-www-form-urlencoded';
        for (const field of t.fields) {
          for (const [name, pair] of formValues) {
            note(
              await probe(
                t,
                joinForm(formWithout(await t.body(field), field), pair(encodeURIComponent(field))),
                type,
                `form ${field}=${name}`,
              ),
            );
          }
          const body = await t.body(field);
          if (typeof body[field] === 'string')
            note(
              await probe(
                t,
                joinForm(
                  formWithout(body, field),
                  `${encodeURIComponent(field)}=${encodeURIComponent(body[field] as string)}%00`,
                ),
                type,
                `form ${field}=valid value + NUL`,
              ),
            );
        }
        for (const [name, raw] of formShapes(await t.body())) note(await probe(t, raw, type, name));
      }
    }
    ctx.diagnostic(`${t.method ?? 'POST'} ${t.path}: ${stats.sent} requests so far`);
  }

  return { stats, probe, sweep };
}
