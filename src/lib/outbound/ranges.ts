// The address ranges an outbound request may not reach unless the operator allows them
// (WARD_OUTBOUND_ALLOW): loopback, private, link-local and the cloud metadata addresses inside them,
// CGNAT, unspecified, multicast, reserved. An IPv6 address that carries an IPv4 one (IPv4-mapped
// ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4
// address it carries, so ::ffff:169.254.169.254 is the metadata address too.
import { BlockList, isIP } from 'node:net';

/** Each refused range and what it is (named in the refusal). */
const REFUSED: ReadonlyArray<[string, string]> = [
  ['169.254.169.254/32', 'a cloud metadata address'],
  ['fd00:ec2::254/128', 'a cloud metadata address'],
  ['0.0.0.0/8', 'an unspecified address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a shared (CGNAT) address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'a reserved address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a reserved address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved address'],
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  ['fc00::/7', 'a private address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
];

export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.0/8`, `::1` (a whole address), `[fd00::]/8`; null when it is not one. */
export function parseCidr(text: string): Cidr | null {
  const m = /^\[?([0-9a-fA-F:.]+)\]?(?:\/(\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const v = isIP(m[1]!);
  if (v === 0) return null;
  const max = v === 4 ? 32 : 128;
  const prefix = m[2] === undefined ? max : Number(m[2]);
  if (prefix > max) return null;
  return { address: m[1]!, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
}

/** A comma-separated list of CIDRs; `problems` hears of each entry that is not one. */
export function parseCidrList(text: string, problem: (entry: string) => void): Cidr[] {
  const out: Cidr[] = [];
  for (const entry of text.split(',').map((s) => s.trim())) {
    if (entry === '') continue;
    const c = parseCidr(entry);
    if (c) out.push(c);
    else problem(entry);
  }
  return out;
}

function blockList(cidrs: Iterable<Cidr>): BlockList {
  const b = new BlockList();
  for (const c of cidrs) b.addSubnet(c.address, c.prefix, c.family);
  return b;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included). */
function groupsOf(v6: string): number[] {
  let text = v6.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), or null. */
export function embeddedIPv4(v6: string): string | null {
  const g = groupsOf(v6);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || (g[5] === 0 && (g[6]! !== 0 || g[7]! > 1)))) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return null;
}

export interface AddressPolicy {
  /** Why the address may not be reached, or null when it may. */
  refusal(address: string): string | null;
}

/** The refused ranges, less what `allow` lists (CIDRs the operator allowed). */
export function addressPolicy(allow: readonly Cidr[]): AddressPolicy {
  const allowed = blockList(allow);
  const refused = REFUSED.map(([cidr, what]) => ({ list: blockList([parseCidr(cidr)!]), what }));
  function refusal(address: string): string | null {
    const family = isIP(address);
    if (family === 0) return 'not an IP address';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (allowed.check(address, type)) return null;
    const inner = family === 6 ? embeddedIPv4(address) : null;
    if (inner !== null) return refusal(inner);
    return refused.find((r) => r.list.check(address, type))?.what ?? null;
  }
  return { refusal };
}

/**
 * The ranges a site's own receivers live in (loopback and private networks), which webhook URLs may
 * reach when the account allows it (`allow_private_webhook_targets`); never link-local nor metadata.
 */
export const PRIVATE_TARGET_CIDRS = '127.0.0.0/8,::1,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

/** The allow list of development mode when WARD_OUTBOUND_ALLOW is not set: loopback. */
export const LOOPBACK_CIDRS = '127.0.0.0/8,::1';
