import type { ClientConfig } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { hmac, safeEqual, seal, unseal } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { ClientRecord } from '../storage/sql/clients.js';
import { isDocumentClientId, type MetadataDocuments } from './metadata-documents.js';

export type Client = ClientRecord;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');

/** Whether a change of a client ends its client_credentials tokens: its secret, scopes or grants. */
const tokensChange = (was: Client, now: Client): boolean =>
  was.secret_digest !== now.secret_digest ||
  was.type !== now.type ||
  !sameList(was.scope.split(' '), now.scope.split(' ')) ||
  !sameList(was.management_scopes, now.management_scopes) ||
  !sameList(was.grant_types, now.grant_types);

const secretAad = (clientId: string): string => `client-secret:${clientId}`;

/**
 * Clients, cached in memory (invalidated on change). Secrets are high-entropy, so they are checked
 * with an HMAC digest and a constant-time compare, never a slow hash; they are also sealed (AES-GCM)
 * because HS256 id tokens are signed with the secret itself.
 */
export function createClientService(deps: {
  storage: Storage;
  masterKey: Buffer;
  clock: Clock;
  /** Client ID Metadata Documents: a client_id that is a URL is answered from its document (metadata-documents.ts). */
  documents?: Pick<MetadataDocuments, 'find'>;
}) {
  const { storage, masterKey, clock } = deps;
  const cache = new Map<string, Client | null>();
  const secrets = new Map<string, string>();
  let origins: Set<string> | null = null;
  let returnUrls: Set<string> | null = null;
  /** Moves on each invalidation: a read begun before one is returned but not cached (it may be stale). */
  let epoch = 0;
  /** Reads, and hands the value to `keep` only if no invalidation came while it was read. */
  async function readThenKeep<T>(read: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const began = epoch;
    const value = await read();
    if (began === epoch) keep(value);
    return value;
  }

  async function find(clientId: string): Promise<Client | undefined> {
    // A NUL is never in a client id (1-128 of A-Z a-z 0-9 . _ ~ -), and PostgreSQL text cannot even hold one.
    if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 128 || clientId.includes('\u0000'))
      return undefined;
    // A URL is never a registered client's id (the pattern refuses "/" and ":"): it names a document.
    if (isDocumentClientId(clientId)) return deps.documents?.find(clientId);
    if (cache.has(clientId)) return cache.get(clientId) ?? undefined;
    const c = await readThenKeep(
      async () => (await storage.clients.find(clientId)) ?? null,
      (found) => {
        if (cache.size > 10_000) cache.clear();
        cache.set(clientId, found);
      },
    );
    return c ?? undefined;
  }

  function invalidate(): void {
    epoch++;
    cache.clear();
    secrets.clear();
    origins = null;
    returnUrls = null;
  }

  return {
    find,
    invalidate,
    checkSecret(client: Client, secret: string): boolean {
      if (!client.secret_digest || typeof secret !== 'string') return false;
      return safeEqual(hmac(masterKey, secret), client.secret_digest);
    },
    /**
     * The plaintext secret (HS256 signing key), unsealed once per sealed value: a client read before
     * a secret change never leaves its old secret in place of the new one.
     */
    secretOf(client: Client): string {
      if (!client.secret_sealed) throw new Error(`client ${client.client_id} has no secret`);
      const cached = secrets.get(client.secret_sealed);
      if (cached) return cached;
      const s = unseal(masterKey, client.secret_sealed, secretAad(client.client_id)).toString('utf8');
      secrets.set(client.secret_sealed, s);
      return s;
    },
    /** Every URL a client registered (callbacks and origins): where logout may send the browser back. */
    async returnUrls(): Promise<Set<string>> {
      if (returnUrls) return returnUrls;
      return readThenKeep(
        async () =>
          new Set((await storage.clients.list()).flatMap((c) => [...c.allowed_callback_urls, ...c.allowed_origins])),
        (urls) => {
          returnUrls = urls;
        },
      );
    },
    /** Every allowed origin of every client (CORS), rebuilt after a change. */
    async allowedOrigins(): Promise<Set<string>> {
      if (origins) return origins;
      return readThenKeep(
        async () => new Set((await storage.clients.list()).flatMap((c) => c.allowed_origins)),
        (found) => {
          origins = found;
        },
      );
    },
    /**
     * Creates or updates a client from a validated definition; with `repos`, inside the caller's
     * transaction (the management API's, which writes the audit row and the webhook event with it).
     */
    async upsert(
      def: ClientConfig,
      source: Client['source'],
      repos: Pick<Repos, 'clients'> = storage,
    ): Promise<Client> {
      const now = clock.now();
      const existing = await repos.clients.find(def.client_id);
      const secret = def.client_secret;
      const record: Client = {
        client_id: def.client_id,
        name: def.name,
        type: def.type,
        secret_sealed: secret ? seal(masterKey, secret, secretAad(def.client_id)) : null,
        secret_digest: secret ? hmac(masterKey, secret) : null,
        jwt_algorithm: def.jwt_algorithm,
        allowed_callback_urls: def.allowed_callback_urls,
        allowed_origins: def.allowed_origins,
        sso: def.sso,
        scope: def.scope,
        pkce_enforced: def.pkce_enforced,
        implicit_flow: def.implicit_flow,
        response_types: def.response_types,
        post_logout_redirect_uris: def.post_logout_redirect_uris,
        backchannel_logout_uri: def.backchannel_logout_uri,
        backchannel_logout_session_required: def.backchannel_logout_session_required,
        grant_types: def.grant_types,
        management_scopes: def.management_scopes,
        custom_token_login: def.custom_token_login,
        first_party: def.first_party,
        logo_uri: def.logo_uri,
        client_uri: def.client_uri,
        policy_uri: def.policy_uri,
        tos_uri: def.tos_uri,
        token_endpoint_auth_method: def.token_endpoint_auth_method,
        jwks: def.jwks,
        jwks_uri: def.jwks_uri,
        require_pushed_authorization_requests: def.require_pushed_authorization_requests,
        request_object_signing_alg: def.request_object_signing_alg,
        require_signed_request_object: def.require_signed_request_object,
        dpop_bound_access_tokens: def.dpop_bound_access_tokens,
        client_credentials_resources: def.client_credentials_resources,
        tokens_not_before: existing?.tokens_not_before ?? now,
        key_mode: existing?.key_mode ?? 'global',
        source,
        created_at: existing?.created_at ?? now,
        updated_at: now,
      };
      // Re-sealing the same secret at each start would churn the row; keep the old seal when unchanged.
      if (existing && secret && existing.secret_digest === record.secret_digest)
        record.secret_sealed = existing.secret_sealed;
      // A client_credentials token is sealed with no grant to revoke: a new secret or other scopes
      // end every one issued before (protocol/bearer.ts, introspection.ts check this time).
      if (existing && tokensChange(existing, record)) record.tokens_not_before = now;
      const same =
        existing && JSON.stringify({ ...existing, updated_at: 0 }) === JSON.stringify({ ...record, updated_at: 0 });
      if (!same) await repos.clients.upsert(record);
      invalidate();
      return same ? existing : record;
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;
