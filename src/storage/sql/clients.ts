import type { Kysely, Selectable } from 'kysely';
import type {
  ClientJwks,
  ClientType,
  JwtAlgorithm,
  RequestObjectAlg,
  TokenEndpointAuthMethod,
} from '../../config/types.js';
import type { ClientsTable, Database } from '../schema.js';
import { bool, int } from './errors.js';

/** A client as stored: the secret is sealed (AES-GCM) for HS256 signing and digested for fast checks. */
export interface ClientRecord {
  client_id: string;
  name: string;
  type: ClientType;
  secret_sealed: string | null;
  secret_digest: string | null;
  jwt_algorithm: JwtAlgorithm;
  allowed_callback_urls: string[];
  allowed_origins: string[];
  sso: boolean;
  scope: string;
  pkce_enforced: boolean;
  implicit_flow: boolean;
  response_types: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  backchannel_logout_session_required: boolean;
  key_mode: 'global' | 'client';
  /** Who made it: the config file, the demo, the management API, the client itself (RFC 7591) or its metadata document (never stored). */
  source: 'config' | 'demo' | 'api' | 'registration' | 'document';
  grant_types: string[];
  management_scopes: string[];
  custom_token_login: boolean;
  /**
   * Its client_credentials access tokens (sealed, no grant row to revoke) issued before this time
   * (ms) are refused: set when the client is created, its secret or its scopes change.
   */
  tokens_not_before: number;
  /** false: a third-party client, whose users consent to the scopes it asks (interaction/next-step.ts). */
  first_party: boolean;
  logo_uri: string | null;
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  /** How it authenticates at the token endpoint; null: with its secret, Basic or in the body (or none when public). */
  token_endpoint_auth_method: TokenEndpointAuthMethod | null;
  /** Its public keys (private_key_jwt), as registered; null: none (or at jwks_uri). */
  jwks: ClientJwks | null;
  /** Where its public keys are fetched (private_key_jwt); null: none. */
  jwks_uri: string | null;
  /** Its authorization requests are pushed first (RFC 9126) or refused. */
  require_pushed_authorization_requests: boolean;
  /** The one algorithm its request objects (RFC 9101) may use; null: any of Ward's. */
  request_object_signing_alg: RequestObjectAlg | null;
  /** Its authorization requests must come in a signed request object (RFC 9101 10.5). */
  require_signed_request_object: boolean;
  /** Its token requests must carry a DPoP proof (RFC 9449 5.2). */
  dpop_bound_access_tokens: boolean;
  /** The API resources (identifier -> scopes) its client_credentials tokens may be for (RFC 8707). */
  client_credentials_resources: Record<string, string[]>;
  created_at: number;
  updated_at: number;
}

const toClient = (r: Selectable<ClientsTable>): ClientRecord => ({
  ...r,
  type: r.type as ClientType,
  jwt_algorithm: r.jwt_algorithm as JwtAlgorithm,
  allowed_callback_urls: JSON.parse(r.allowed_callback_urls) as string[],
  allowed_origins: JSON.parse(r.allowed_origins) as string[],
  grant_types: JSON.parse(r.grant_types) as string[],
  response_types: JSON.parse(r.response_types) as string[],
  post_logout_redirect_uris: JSON.parse(r.post_logout_redirect_uris) as string[],
  backchannel_logout_session_required: bool(r.backchannel_logout_session_required),
  management_scopes: JSON.parse(r.management_scopes) as string[],
  sso: bool(r.sso),
  pkce_enforced: bool(r.pkce_enforced),
  implicit_flow: bool(r.implicit_flow),
  custom_token_login: bool(r.custom_token_login),
  first_party: bool(r.first_party),
  key_mode: r.key_mode as ClientRecord['key_mode'],
  source: r.source as ClientRecord['source'],
  // Rows written before migration 038 (or by a release before it) have none of these.
  token_endpoint_auth_method: (r.token_endpoint_auth_method ?? null) as TokenEndpointAuthMethod | null,
  jwks: r.jwks ? (JSON.parse(r.jwks) as ClientJwks) : null,
  jwks_uri: r.jwks_uri ?? null,
  require_pushed_authorization_requests: bool(r.require_pushed_authorization_requests ?? 0),
  // Rows written before migration 046 (or by a release before it) have none of these.
  request_object_signing_alg: (r.request_object_signing_alg ?? null) as RequestObjectAlg | null,
  require_signed_request_object: bool(r.require_signed_request_object ?? 0),
  dpop_bound_access_tokens: bool(r.dpop_bound_access_tokens ?? 0),
  client_credentials_resources: r.client_credentials_resources
    ? (JSON.parse(r.client_credentials_resources) as Record<string, string[]>)
    : {},
});

const toRow = (c: ClientRecord) => ({
  ...c,
  allowed_callback_urls: JSON.stringify(c.allowed_callback_urls),
  allowed_origins: JSON.stringify(c.allowed_origins),
  grant_types: JSON.stringify(c.grant_types),
  response_types: JSON.stringify(c.response_types),
  post_logout_redirect_uris: JSON.stringify(c.post_logout_redirect_uris),
  backchannel_logout_session_required: int(c.backchannel_logout_session_required),
  management_scopes: JSON.stringify(c.management_scopes),
  sso: int(c.sso),
  pkce_enforced: int(c.pkce_enforced),
  implicit_flow: int(c.implicit_flow),
  custom_token_login: int(c.custom_token_login),
  first_party: int(c.first_party),
  jwks: c.jwks ? JSON.stringify(c.jwks) : null,
  require_pushed_authorization_requests: int(c.require_pushed_authorization_requests),
  require_signed_request_object: int(c.require_signed_request_object),
  dpop_bound_access_tokens: int(c.dpop_bound_access_tokens),
  client_credentials_resources: Object.keys(c.client_credentials_resources).length
    ? JSON.stringify(c.client_credentials_resources)
    : null,
});

export function clientsRepo(db: Kysely<Database>) {
  return {
    async find(clientId: string): Promise<ClientRecord | undefined> {
      const r = await db.selectFrom('clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
      return r && toClient(r);
    },
    async list(): Promise<ClientRecord[]> {
      const rows = await db.selectFrom('clients').selectAll().orderBy('client_id').execute();
      return rows.map(toClient);
    },
    /** Inserts or replaces every field but key_mode and created_at. */
    async upsert(c: ClientRecord): Promise<void> {
      const row = toRow(c);
      const { client_id: _id, created_at: _c, key_mode: _k, ...update } = row;
      await db
        .insertInto('clients')
        .values(row)
        .onConflict((oc) => oc.column('client_id').doUpdateSet(update))
        .execute();
    },
    async delete(clientId: string): Promise<boolean> {
      const r = await db.deleteFrom('clients').where('client_id', '=', clientId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
    async setKeyMode(clientId: string, mode: 'global' | 'client', now: number): Promise<void> {
      await db
        .updateTable('clients')
        .set({ key_mode: mode, updated_at: now })
        .where('client_id', '=', clientId)
        .execute();
    },
  };
}
