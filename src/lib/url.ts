import { hasControlCharacter } from './text.js';

/** Schemes never accepted in a registered URL, in any letter case (Keycloak CVE-2026-9086 class). */
const FORBIDDEN_SCHEMES = /^\s*(javascript|data|vbscript|file):/i;

/** Why a callback URL cannot be registered, or null when it can. */
export function callbackUrlProblem(value: string): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string';
  if (value.length > 2048) return 'must be at most 2048 characters';
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return 'must not contain spaces, control characters or backslashes';
  if (FORBIDDEN_SCHEMES.test(value)) return 'must not use a javascript:, data:, vbscript: or file: scheme';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || value.includes('#')) return 'must not contain a fragment';
  const authority = writtenAuthority(value, url);
  // An "@" in the authority is userinfo even when empty ("https://@host", "https:@host"): refused.
  if (url.username || url.password || authority?.includes('@')) return 'must not contain userinfo';
  // The host as written must be the host visited: no percent-encoded host ("app.example%2eevil.tld").
  if (authority?.includes('%')) return 'must not percent-encode the host';
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !/^\/\/[^/]/.test(value.slice(url.protocol.length))) {
    return 'must be written scheme://host/path';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  if (url.protocol === 'http:') return 'must use https (http is allowed only for loopback addresses)';
  // Private-use schemes of native apps (RFC 8252 section 7.1) need a dot, e.g. com.example.app:/cb
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol)) return null;
  return 'must use https, loopback http, or a reverse-domain private-use scheme';
}

/** The authority exactly as written in `value` (http/https ignore how many slashes precede it), or null. */
function writtenAuthority(value: string, url: URL): string | null {
  const rest = value.slice(url.protocol.length);
  const special = url.protocol === 'http:' || url.protocol === 'https:';
  if (!special && !rest.startsWith('//')) return null;
  return rest.replace(/^\/+/, '').split(/[/?#]/, 1)[0]!;
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';
}

/** Why an allowed origin cannot be registered, or null when it can. */
export function originProblem(value: string): string | null {
  if (typeof value !== 'string') return 'must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an origin such as https://app.example';
  }
  if (url.origin !== value) return 'must be exactly an origin (scheme://host[:port], no path or trailing slash)';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return 'must use https (http only for loopback)';
  }
  return null;
}

/** Whether s is an http(s) URL of at most 2048 characters without userinfo (a profile's picture, website...). */
export function isWebUrl(s: string): boolean {
  if (s.length > 2048 || hasControlCharacter(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}
