import { hasControlCharacter } from '../../lib/text.js';
import { callbackUrlProblem, isLoopbackHost, originProblem } from '../../lib/url.js';

/**
 * Checks that JSON Schema cannot say (URL rules, domain names), named in the schemas by `x-check`.
 * Each names what it takes (`noun`, for a value of the wrong type), says what is allowed, and why a
 * string is refused (null when it is allowed).
 */
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** A web URL: what a callback URL allows, limited to https (or http on loopback). */
function webUrlProblem(v: string, why: string): string | null {
  const problem = callbackUrlProblem(v);
  if (problem) return problem;
  return /^https?:$/.test(new URL(v).protocol) ? null : why;
}

export const CHECKS = {
  /** A redirect target: https, loopback http, or a native app's private-use scheme. */
  callback_url: {
    noun: 'a URL',
    allowed: 'a callback URL (https, loopback http or app.scheme:/path)',
    problem: callbackUrlProblem,
  },
  origin: {
    noun: 'an origin',
    allowed: 'an origin such as https://app.example',
    problem: originProblem,
  },
  web_page: {
    noun: 'a URL',
    allowed: 'a web page: https (http only for loopback), no fragment',
    problem: (v: string) => webUrlProblem(v, 'must be a web page: https (http only for loopback)'),
  },
  /** A breached-password range API: the hash prefix is appended, so no query or fragment. */
  range_api: {
    noun: 'a URL',
    allowed: 'an https URL (http only for loopback) without query or fragment',
    problem: (v: string) =>
      webUrlProblem(v, 'must be an https URL (http only for loopback) without query or fragment') ??
      (v.includes('?') ? 'must be an https URL (http only for loopback) without query or fragment' : null),
  },
  /** A provider's endpoint: https, or http on loopback (a provider run for tests or locally). */
  endpoint: {
    noun: 'a URL',
    allowed: 'an https URL (http only on loopback)',
    problem: (v: string) => {
      if (!URL.canParse(v)) return 'must be an absolute URL';
      const u = new URL(v);
      return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))
        ? null
        : 'must be https (http only on loopback)';
    },
  },
  domain: {
    noun: 'a domain name',
    allowed: 'a lower-case domain name such as example.com (no scheme, port or IP address)',
    problem: (v: string) =>
      DOMAIN.test(v) && !/^[0-9.]+$/.test(v)
        ? null
        : 'must be a lower-case domain name such as example.com (no scheme, port or IP address)',
  },
  printable: {
    noun: 'a string',
    allowed: 'text without control characters',
    problem: (v: string) => (hasControlCharacter(v) ? 'must not contain control characters' : null),
  },
  scope: {
    noun: 'a string',
    allowed: 'a space-separated list of scope names',
    problem: (v: string) => (SCOPE.test(v) ? null : 'must be a space-separated list of scope names'),
  },
  /** The issuer: an absolute http(s) URL, no query, fragment or trailing slash (OpenID Connect Discovery 3). */
  issuer: {
    noun: 'a URL',
    allowed: 'an https URL without query, fragment or trailing slash',
    problem: (v: string) => {
      if (!URL.canParse(v)) return 'must be an absolute URL';
      const u = new URL(v);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an https URL';
      if (u.search || u.hash) return 'must have no query or fragment (OpenID Connect Discovery 3)';
      return v.endsWith('/') ? 'must not end with a slash' : null;
    },
  },
  master_key: {
    noun: 'a string',
    allowed: 'the base64 of exactly 32 bytes',
    problem: (v: string) => (Buffer.from(v, 'base64').length === 32 ? null : 'must be the base64 of exactly 32 bytes'),
  },
} satisfies Record<string, { noun: string; allowed: string; problem: (v: string) => string | null }>;

export type CheckName = keyof typeof CHECKS;
