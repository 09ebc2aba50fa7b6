// The one HTTP client for every URL Ward fetches on an operator's or a third party's word: a social
// provider's discovery, token, UserInfo and JWKS endpoints, back-channel logout URIs, the breached-
// password range API, the SMS provider. Its rules:
// - http and https only; redirects are never followed (a 3xx is the answer, which callers refuse);
// - the host is resolved once per connection and every address it resolves to is checked against the
//   refused ranges (ranges.ts) before connecting; the socket then connects to the checked address
//   (undici's `connect.lookup` answers it), so a second resolution cannot point it elsewhere (no DNS
//   rebinding window). A literal IP in the URL is checked before anything is sent;
// - the whole exchange (connection, answer, body) has a time cap, and the body a size cap: the answer
//   comes back buffered, as a Response whose body is already read.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent, RequestInit, Response } from 'undici';

/** undici, loaded on the first outbound call: most starts make none for a while (a tenth of the start-up). */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => (undici ??= import('undici'));
import { addressPolicy, type Cidr } from './ranges.js';

/** Why Ward did not send the request (the URL or its address is refused, the answer too large). */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

export interface OutboundOptions {
  /** The refused ranges the operator allowed (WARD_OUTBOUND_ALLOW). */
  allow: readonly Cidr[];
  /** Default time cap of one request, answer and body included; default 10 s. */
  timeoutMs?: number;
  /** Default size cap of an answer's body (after decoding); default 1 MiB. */
  maxBytes?: number;
  /** How a host name is resolved (every address); default the system resolver (dns.lookup). */
  resolve?: (host: string) => Promise<LookupAddress[]>;
  /** Runs each call (a trace's client span: observability/tracing.ts); it sees the method and URL only. */
  around?: (method: string, url: URL, call: () => Promise<Response>) => Promise<Response>;
}

export interface OutboundInit extends Omit<RequestInit, 'redirect' | 'dispatcher'> {
  timeoutMs?: number;
  maxBytes?: number;
}

export interface Outbound {
  /** fetch, guarded: refused addresses throw OutboundRefused, the body comes back read (capped). */
  fetch(url: string | URL, init?: OutboundInit): Promise<Response>;
  close(): Promise<void>;
}

const systemResolve = (host: string) =>
  new Promise<LookupAddress[]>((ok, fail) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? fail(err) : ok(addresses))),
  );

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** Statuses whose Response has no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new OutboundRefused(`the answer is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw new OutboundRefused(`the answer is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

export function createOutbound(opts: OutboundOptions): Outbound {
  const policy = addressPolicy(opts.allow);
  const resolve = opts.resolve ?? systemResolve;

  /** The addresses of a host, each checked; a refused one refuses the host. */
  async function checkedAddresses(host: string): Promise<LookupAddress[]> {
    const addresses = await resolve(host);
    if (!addresses.length) throw new OutboundRefused(`${host} resolves to no address`);
    for (const a of addresses) {
      const why = policy.refusal(a.address);
      if (why) throw new OutboundRefused(`${host} resolves to ${why} (${a.address})`);
    }
    return addresses;
  }

  // net.connect calls it for a host name (never for a literal IP, checked before sending).
  function lookup(host: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    checkedAddresses(host).then(
      (all) => {
        const fit = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (!fit.length)
          return callback(Object.assign(new Error(`${host}: no IPv${family} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, fit);
        else callback(null, fit[0]!.address, fit[0]!.family);
      },
      (e: Error) => callback(e, ''),
    );
  }

  let agent: Agent | undefined;

  async function guardedFetch(url: URL, init: OutboundInit): Promise<Response> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new OutboundRefused(`${url.protocol} URLs are not fetched`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host)) {
      const why = policy.refusal(host);
      if (why) throw new OutboundRefused(`${host} is ${why}`);
    }
    const { timeoutMs = opts.timeoutMs ?? 10_000, maxBytes = opts.maxBytes ?? 1024 * 1024, signal, ...rest } = init;
    const timeout = AbortSignal.timeout(timeoutMs);
    const { Agent, fetch, Response } = await loadUndici();
    agent ??= new Agent({ connect: { lookup: lookup as never } });
    let res: Awaited<ReturnType<typeof fetch>>;
    let body: Buffer;
    try {
      res = await fetch(url, {
        ...rest,
        redirect: 'manual',
        dispatcher: agent,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = await readCapped(res, maxBytes);
    } catch (e) {
      // undici wraps what the lookup refused in "fetch failed": the refusal is the error.
      const cause = (e as { cause?: unknown }).cause;
      throw cause instanceof OutboundRefused ? cause : e;
    }
    return new Response(NULL_BODY.has(res.status) ? null : body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }

  return {
    fetch(target, init = {}) {
      const url = new URL(target);
      const around = opts.around;
      return around
        ? around((init.method ?? 'GET').toUpperCase(), url, () => guardedFetch(url, init))
        : guardedFetch(url, init);
    },
    close: async () => {
      await agent?.close();
    },
  };
}
