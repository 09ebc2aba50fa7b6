// The approximate place of a sign-in's address, for the user's list of sessions (issue 38, item 5), read
// from a local GeoIP database only: a MaxMind DB file (GeoLite2/GeoIP2 City or Country, DB-IP's City or
// Country Lite) named by WARD_GEOIP_DATABASE, read by the `maxmind` library. No setting: no place. A
// private, loopback or otherwise non-public address has no place. A missing or unreadable file never
// fails a request: it is logged once and no place is shown until the server restarts.
import { BlockList, isIP } from 'node:net';
import { readFile } from 'node:fs/promises';
import type { Language } from '../errors/ward-error.js';

/** A place in the user's language: the city when the database knows it, and the country. */
export interface Place {
  city: string | null;
  country: string | null;
}

export interface Places {
  /** The place of `ip` in `language` (English when the database has no name in it), or null. */
  of(ip: string | null, language: Language): Promise<Place | null>;
}

interface Names {
  names?: Record<string, string>;
}
interface GeoRecord {
  city?: Names;
  country?: Names;
  registered_country?: Names;
}

/** Addresses no database places: private, loopback, link-local, shared, documentation, unique-local. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['2001:db8::', 32],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** The address as the database reads it (an IPv4-mapped IPv6 address as IPv4), or null: not public. */
export function publicAddress(ip: string | null): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const a = mapped ?? ip;
  const family = isIP(a);
  if (family === 0) return null;
  return NOT_PUBLIC.check(a, family === 4 ? 'ipv4' : 'ipv6') ? null : a;
}

const nameIn = (n: Names | undefined, language: Language): string | null => {
  const v = n?.names?.[language] ?? n?.names?.en;
  return typeof v === 'string' && v ? v.slice(0, 100) : null;
};

export function createPlaces(file: string | null, log: { warn(obj: object, msg: string): void }): Places {
  type Reader = { get(ip: string): GeoRecord | null };
  let reader: Promise<Reader | null> | null = null;
  const open = (path: string): Promise<Reader | null> =>
    (reader ??= (async () => {
      try {
        const { Reader } = await import('maxmind');
        return new Reader(await readFile(path)) as unknown as Reader;
      } catch (e) {
        // Logged once: the reader stays null until the server restarts.
        log.warn({ err: { message: (e as Error)?.message?.slice(0, 200) } }, 'GeoIP database unreadable: no place');
        return null;
      }
    })());
  return {
    async of(ip, language) {
      const a = publicAddress(ip);
      if (!file || !a) return null;
      const db = await open(file);
      if (!db) return null;
      let r: GeoRecord | null;
      try {
        r = db.get(a);
      } catch {
        return null;
      }
      const country = nameIn(r?.country ?? r?.registered_country, language);
      const city = nameIn(r?.city, language);
      return country || city ? { city, country } : null;
    },
  };
}
