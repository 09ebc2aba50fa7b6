// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP authorization
// specification of 2025-11-25): a client_id that is an https URL names a JSON document at that URL
// describing the client. When the account allows them (client_registration.metadata_documents), the
// document is fetched through the guarded outbound client (lib/outbound/: no private address, a
// 5 KiB and 5 s cap, no redirect followed), cached as its Cache-Control says, checked (its client_id
// is its URL, its redirect_uris listed, no secret), and served as a third-party public client.
//
// http is accepted only for a loopback host the operator allowed to be fetched (WARD_OUTBOUND_ALLOW),
// so a local test can serve the document; anywhere else a document is https.
import { isIP } from 'node:net';
import type { AccountSettings } from '../config/types.js';
import type { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import type { ClientRecord } from '../storage/sql/clients.js';
import { parseMetadata } from './registered-metadata.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface MetadataDocumentDeps {
  outbound: Pick<Outbound, 'fetch'>;
  clock: Clock;
  account: () => AccountSettings;
  /** Whether the guarded client may reach loopback (WARD_OUTBOUND_ALLOW lists it): http allowed there. */
  loopbackAllowed: boolean;
  /** Told why a document was refused (a log line; the authorization answers only "unknown client"). */
  refused?: (url: string, why: string) => void;
}

/** The longest client_id Ward stores (every client_id column is 128 characters). */
export const MAX_DOCUMENT_URL = 128;
const MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;
/** Without a Cache-Control max-age a document is kept 5 minutes; never more than a day. */
const DEFAULT_TTL_S = 300;
const MAX_TTL_S = 24 * 3600;
/** A refused document is asked again no sooner than this, so a bad URL does not cost a fetch per request. */
const REFUSED_TTL_S = 60;
const MAX_CACHED = 1000;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a client_id is meant as a metadata document's URL (what else it could be never has "://"). */
export const isDocumentClientId = (id: string): boolean => id.startsWith('https://') || id.startsWith('http://');

/** Why the URL cannot be a client_id (the draft's section 3), or null. */
export function documentUrlProblem(id: string, loopbackAllowed: boolean): string | null {
  if (id.length > MAX_DOCUMENT_URL) return `longer than ${MAX_DOCUMENT_URL} characters`;
  if (!URL.canParse(id)) return 'not a URL';
  const u = new URL(id);
  if (u.href !== id) return 'not in normal form (dot segments, case, encoding)';
  const loopback = LOOPBACK_NAMES.has(u.hostname) || (isIP(u.hostname) === 4 && u.hostname.startsWith('127.'));
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback && loopbackAllowed)) return 'not https';
  if (u.username || u.password) return 'has credentials';
  if (u.hash || id.includes('#')) return 'has a fragment';
  if (u.pathname === '/' || u.pathname === '') return 'has no path';
  return null;
}

/** Seconds the answer may be kept, from its Cache-Control (0: not at all). */
function ttlOf(cacheControl: string | null): number {
  if (!cacheControl) return DEFAULT_TTL_S;
  const cc = cacheControl.toLowerCase();
  if (/(^|,)\s*(no-store|no-cache|private)\s*(,|$)/.test(cc)) return 0;
  const m = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cc);
  return m ? Math.min(Number(m[2]), MAX_TTL_S) : DEFAULT_TTL_S;
}

export function createMetadataDocuments(deps: MetadataDocumentDeps) {
  const cache = new Map<string, { client: ClientRecord | null; until: number }>();
  const pending = new Map<string, Promise<ClientRecord | null>>();

  async function load(url: string): Promise<{ client: ClientRecord | null; ttl: number }> {
    const refuse = (why: string) => {
      deps.refused?.(url, why);
      return { client: null, ttl: REFUSED_TTL_S };
    };
    let res: Awaited<ReturnType<Outbound['fetch']>>;
    try {
      res = await deps.outbound.fetch(url, {
        headers: { accept: 'application/json' },
        maxBytes: MAX_BYTES,
        timeoutMs: TIMEOUT_MS,
      });
    } catch (e) {
      return refuse(`not fetched: ${(e as Error).message}`);
    }
    if (res.status !== 200) return refuse(`answered ${res.status}`);
    let doc: unknown;
    try {
      doc = JSON.parse(await res.text());
    } catch {
      return refuse('not JSON');
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return refuse('not a JSON object');
    const d = doc as Record<string, unknown>;
    if (d.client_id !== url) return refuse('its client_id is not its URL');
    for (const k of ['client_secret', 'client_secret_expires_at'])
      if (d[k] !== undefined) return refuse(`it has ${k} (a document names a public client)`);
    if (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== 'none')
      return refuse('its token_endpoint_auth_method is not none (Ward takes no other for a document)');
    let parsed: ReturnType<typeof parseMetadata>;
    try {
      // Validated under a stand-in id (a URL is not a client id of the registry); the URL replaces it.
      parsed = parseMetadata(d, 'none', 'metadata-document');
    } catch (e) {
      return refuse((e as WardError).description ?? (e as Error).message);
    }
    const now = deps.clock.now();
    const def = parsed.definition;
    const client: ClientRecord = {
      ...def,
      client_id: url,
      name: typeof d.client_name === 'string' && d.client_name ? def.name : new URL(url).host,
      secret_sealed: null,
      secret_digest: null,
      allowed_origins: [],
      sso: false,
      management_scopes: [],
      custom_token_login: false,
      backchannel_logout_uri: null,
      backchannel_logout_session_required: false,
      key_mode: 'global',
      source: 'document',
      tokens_not_before: 0,
      created_at: now,
      updated_at: now,
    };
    return { client, ttl: ttlOf(res.headers.get('cache-control')) };
  }

  return {
    /** The client a document URL names, or undefined when documents are off or it is refused. */
    async find(url: string): Promise<ClientRecord | undefined> {
      if (!deps.account().client_registration.metadata_documents) return undefined;
      const problem = documentUrlProblem(url, deps.loopbackAllowed);
      if (problem) {
        deps.refused?.(url.slice(0, 200), `the client_id URL is ${problem}`);
        return undefined;
      }
      const now = deps.clock.now();
      const hit = cache.get(url);
      if (hit && hit.until > now) return hit.client ?? undefined;
      // One fetch per URL at a time, whoever asks meanwhile waits for it.
      let loading = pending.get(url);
      if (!loading) {
        loading = load(url).then(({ client, ttl }) => {
          if (cache.size >= MAX_CACHED) cache.clear();
          if (ttl > 0) cache.set(url, { client, until: deps.clock.now() + ttl * 1000 });
          else cache.delete(url);
          return client;
        });
        loading.finally(() => pending.delete(url)).catch(() => {});
        pending.set(url, loading);
      }
      return (await loading) ?? undefined;
    },
  };
}

export type MetadataDocuments = ReturnType<typeof createMetadataDocuments>;
