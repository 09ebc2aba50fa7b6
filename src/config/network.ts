// The two network settings of the environment: which proxies' X-Forwarded-For Ward believes
// (WARD_TRUSTED_PROXIES) and which refused address ranges its outbound requests may reach anyway
// (WARD_OUTBOUND_ALLOW).
import { type Cidr, LOOPBACK_CIDRS, parseCidr, parseCidrList } from '../lib/outbound/ranges.js';

/** proxy-addr's names of ranges, accepted as they are (Fastify's trustProxy understands them). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * WARD_TRUSTED_PROXIES: the addresses (or CIDRs, or proxy-addr's names) of the proxies in front of
 * Ward. Unset: none, and X-Forwarded-For is never read (the client is the connecting address).
 */
export function parseTrustedProxies(raw: string | undefined, problem: (message: string) => void): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const out: string[] = [];
  for (const entry of raw.split(',').map((s) => s.trim())) {
    if (entry === '') continue;
    if (PROXY_RANGE_NAMES.includes(entry) || parseCidr(entry)) out.push(entry.replace(/^\[(.*)\](\/\d+)?$/, '$1$2'));
    else
      problem(
        `${JSON.stringify(entry)} is not an IP address, a CIDR range (10.0.0.0/8) or one of ${PROXY_RANGE_NAMES.join(', ')}`,
      );
  }
  return out;
}

/**
 * WARD_OUTBOUND_ALLOW: CIDR ranges outbound requests may reach although they are loopback, private,
 * link-local... (`none`: nothing). Unset: loopback in development mode, nothing in production.
 */
export function parseOutboundAllow(raw: string | undefined, mode: string, problem: (message: string) => void): Cidr[] {
  const text = raw === undefined || raw.trim() === '' ? (mode === 'production' ? '' : LOOPBACK_CIDRS) : raw;
  if (text.trim() === 'none') return [];
  return parseCidrList(text, (entry) =>
    problem(`${JSON.stringify(entry)} is not a CIDR range (e.g. 10.1.2.0/24 or fd00::/8) nor "none"`),
  );
}
