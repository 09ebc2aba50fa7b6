// Dynamic Client Registration (RFC 7591) and its management protocol (RFC 7592): a client registers
// itself at /oauth/register and reads, replaces or deletes its registration at its client
// configuration endpoint with the registration access token it was given. Off unless the account's
// client_registration.mode opens it (`open`, or `initial_access_token`: a Bearer token whose SHA-256
// the account holds). The registration access token and the client secret are shown only in answers;
// the database holds the token's HMAC and the secret sealed, as for every client.
import { hash } from 'node:crypto';
import { CLIENT_ID_PATTERN } from '../config/schema/client.js';
import type { AccountSettings } from '../config/types.js';
import { recordAudit, type Actor } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import { clientSet } from '../keys/key-store.js';
import { invalidToken } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import { hmac, safeEqual } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';
import type { ClientRegistrationRecord } from '../storage/sql/client-registrations.js';
import { invalidMetadata, metadataOf, parseMetadata } from './registered-metadata.js';
import type { Client, ClientService } from './service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface RegistrationDeps {
  storage: Storage;
  clients: Pick<ClientService, 'find' | 'upsert' | 'invalidate' | 'secretOf'>;
  masterKey: Buffer;
  clock: Clock;
  account: () => AccountSettings;
  issuer: string;
  /** Publishes the global key pair of an ID token algorithm before the client's first token. */
  ensureSigningKey: (alg: string) => Promise<void>;
}

/** The parameters a client never sends in an update (RFC 7592 section 2.2). */
const SERVER_SET = [
  'registration_access_token',
  'registration_client_uri',
  'client_id_issued_at',
  'client_secret_expires_at',
];

const CLIENT_ID = new RegExp(CLIENT_ID_PATTERN);

const tokenDigest = (masterKey: Buffer, token: string) => hmac(masterKey, `registration:${token}`);

/** The Bearer token of an Authorization header, or null. */
export function bearerOf(authorization: string | undefined): string | null {
  const m = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization?.trim() ?? '');
  return m ? m[1]! : null;
}

export function createRegistrations(deps: RegistrationDeps) {
  const { storage, clients, masterKey, clock } = deps;
  const configurationUri = (clientId: string) => `${deps.issuer}/oauth/register/${encodeURIComponent(clientId)}`;

  /** The registration as RFC 7591 section 3.2.1 answers it: metadata and credentials. */
  function answer(c: Client, reg: ClientRegistrationRecord, token: string | null): Record<string, unknown> {
    return {
      ...metadataOf(c, reg.auth_method, reg.metadata),
      // A private_key_jwt client authenticates with its key: the secret it holds (for HS256 ID tokens,
      // never accepted at the token endpoint) is not handed out.
      ...(c.secret_sealed && reg.auth_method !== 'private_key_jwt'
        ? { client_secret: clients.secretOf(c), client_secret_expires_at: 0 }
        : {}),
      client_id_issued_at: Math.floor(reg.created_at / 1000),
      ...(token ? { registration_access_token: token } : {}),
      registration_client_uri: configurationUri(c.client_id),
    };
  }

  async function audit(actor: Actor, action: string, clientId: string, outcome: 'success' | 'denied', details = {}) {
    await recordAudit(storage, clock.now(), actor, action, `client:${clientId}`, outcome, details);
  }

  /** Saves the client and its registration; other processes drop their cached clients. */
  async function save(
    clientId: string,
    raw: unknown,
    secret: string | undefined,
    reg: Omit<ClientRegistrationRecord, 'auth_method' | 'metadata' | 'updated_at'>,
  ) {
    const parsed = parseMetadata(raw, 'client_secret_basic', clientId);
    const secretNow = parsed.authMethod === 'none' ? undefined : (secret ?? randomToken(32));
    await deps.ensureSigningKey(parsed.definition.jwt_algorithm);
    const client = await clients.upsert(
      { ...parsed.definition, client_id: clientId, ...(secretNow ? { client_secret: secretNow } : {}) },
      'registration',
    );
    const record: ClientRegistrationRecord = {
      ...reg,
      auth_method: parsed.authMethod,
      metadata: parsed.kept,
      updated_at: clock.now(),
    };
    await storage.transaction(async (tx) => {
      await tx.clientRegistrations.put(record);
      await tx.versions.bump('clients');
    });
    clients.invalidate();
    return { client, record };
  }

  /** The client this registration access token manages; 401 for a wrong token or an unknown client. */
  async function authorized(clientId: string, authorization: string | undefined, ip: string | null) {
    const token = bearerOf(authorization);
    if (!token) throw invalidToken('The registration access token is required', false);
    // No lookup nor audit row for what cannot be a client id (nor be stored: a NUL, 10 kB).
    if (!CLIENT_ID.test(clientId)) throw invalidToken('The registration access token is not valid for this client');
    const reg = await storage.clientRegistrations.find(clientId);
    const client = reg && (await clients.find(clientId));
    if (!reg || !client || !safeEqual(tokenDigest(masterKey, token), reg.token_digest)) {
      await audit({ type: 'client', id: clientId, ip }, 'client.registration_denied', clientId, 'denied');
      throw invalidToken('The registration access token is not valid for this client');
    }
    return { reg, client };
  }

  return {
    /** RFC 7591 section 3: a new third-party client; its answer carries its credentials, once. */
    async register(raw: unknown, authorization: string | undefined, ip: string | null) {
      const settings = deps.account().client_registration;
      if (settings.mode === 'off') throw new WardError('registrationClosed');
      if (settings.mode === 'initial_access_token') {
        const token = bearerOf(authorization);
        const digest = token ? hash('sha256', token, 'hex') : '';
        if (!token || !safeEqual(digest, settings.initial_access_token_sha256 ?? '')) {
          await audit({ type: 'client', id: 'anonymous', ip }, 'client.registration_denied', 'new', 'denied');
          throw invalidToken('A valid initial access token is required to register', Boolean(token));
        }
      }
      const clientId = `dcr-${randomToken(18)}`;
      const token = randomToken(32);
      const now = clock.now();
      const { client, record } = await save(clientId, raw, undefined, {
        client_id: clientId,
        token_digest: tokenDigest(masterKey, token),
        created_at: now,
      });
      await audit({ type: 'client', id: clientId, ip }, 'client.registered', clientId, 'success', {
        token_endpoint_auth_method: record.auth_method,
        redirect_uris: client.allowed_callback_urls,
        with_initial_access_token: settings.mode === 'initial_access_token',
      });
      return answer(client, record, token);
    },

    /** RFC 7592 section 2.1. */
    async read(clientId: string, authorization: string | undefined, ip: string | null) {
      const { reg, client } = await authorized(clientId, authorization, ip);
      await audit({ type: 'client', id: clientId, ip }, 'client.registration_read', clientId, 'success');
      return answer(client, reg, null);
    },

    /** RFC 7592 section 2.2: the metadata sent replaces the registered metadata whole. */
    async update(clientId: string, authorization: string | undefined, raw: unknown, ip: string | null) {
      const { reg, client } = await authorized(clientId, authorization, ip);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw invalidMetadata('the client metadata must be a JSON object');
      const body = raw as Record<string, unknown>;
      for (const k of SERVER_SET)
        if (body[k] !== undefined)
          throw new WardError('invalidRequest', { description: `${k} is set by the server, not sent in an update` });
      if (body.client_id !== clientId)
        throw new WardError('invalidRequest', { description: 'client_id must be the client being updated' });
      const current = client.secret_sealed ? clients.secretOf(client) : undefined;
      if (body.client_secret !== undefined && body.client_secret !== current)
        throw new WardError('invalidRequest', { description: 'client_secret must be the current one' });
      const { client: updated, record } = await save(clientId, body, current, reg);
      await audit({ type: 'client', id: clientId, ip }, 'client.registration_updated', clientId, 'success', {
        token_endpoint_auth_method: record.auth_method,
        redirect_uris: updated.allowed_callback_urls,
      });
      return answer(updated, record, null);
    },

    /** RFC 7592 section 2.3: the client, its registration and its users' consents are gone. */
    async remove(clientId: string, authorization: string | undefined, ip: string | null) {
      await authorized(clientId, authorization, ip);
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.clients.delete(clientId);
        await tx.clientRegistrations.delete(clientId);
        await tx.consents.revokeClient(clientId);
        // An administrator may have given it keys of its own: they go with it, as in the management API.
        await tx.keys.revokeSet(clientSet(clientId), now);
        await tx.versions.bump('keys');
        await tx.versions.bump('clients');
        await recordAudit(
          tx,
          now,
          { type: 'client', id: clientId, ip },
          'client.registration_deleted',
          `client:${clientId}`,
          'success',
        );
      });
      clients.invalidate();
    },
  };
}

export type Registrations = ReturnType<typeof createRegistrations>;
