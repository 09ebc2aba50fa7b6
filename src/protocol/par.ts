// Pushed Authorization Requests (RFC 9126). POST /oauth/par: an authenticated client (any method of
// token/client-auth.ts) sends its authorization request's parameters; they are validated as
// /oauth/authorize would (authorize/pipeline.ts) and kept for PAR_TTL_S under a random reference in
// one_time_tokens (kind `par`, the reference only as its digest). The answer's `request_uri`
// (urn:ietf:params:oauth:request_uri:<reference>) is then sent to /oauth/authorize with the client_id,
// which takes the pushed parameters, once, instead of the query's. A DPoP header binds the code to its
// proof's key (RFC 9449 10.1), as dpop_jkt does. Any other request_uri still reaches
// authorize/check-request-object.ts and is request_uri_not_supported.
import { hash } from 'node:crypto';
import type { SecurityEvents } from '../audit/events.js';
import { invalidClient, invalidRequest } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import type { ResourceLookup } from '../resources/service.js';
import type { Storage } from '../storage/storage.js';
import type { Client } from '../clients/service.js';
import type { RequestObjects } from './authorize/request-object.js';
import { type DpopVerifier, type ProofInput, proofError } from './dpop/proof.js';
import { validateAuthorizeRequest } from './authorize/pipeline.js';
import type { Params } from './params.js';
import { authenticateClient, type ClientAuthDeps } from './token/client-auth.js';

export const PAR_PREFIX = 'urn:ietf:params:oauth:request_uri:';
/** How long a pushed request may wait for the browser (RFC 9126 2.2 suggests 5 to 600 seconds). */
export const PAR_TTL_S = 60;
/** The client's credentials: never kept with the pushed parameters. */
const CREDENTIALS = ['client_secret', 'client_assertion', 'client_assertion_type'];

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ParDeps extends ClientAuthDeps {
  storage: Storage;
  clock: Clock;
  events: SecurityEvents;
  resources: ResourceLookup;
  /** Verifies a pushed signed request object (RFC 9101, RFC 9126 3). */
  requestObjects: RequestObjects;
  /** DPoP proofs: a pushed request with a DPoP header binds its code to the proof's key (RFC 9449 10.1). */
  dpop: DpopVerifier;
}

/** What a pushed request keeps: its parameters, and whether they came from a signed request object. */
interface Stored {
  v: 2;
  params: Params;
  signed: boolean;
}

const digestOf = (reference: string) => hash('sha256', `par:${reference}`, 'hex');

/** POST /oauth/par: the request_uri of a validated, stored authorization request. */
export async function pushAuthorizationRequest(
  r: ParDeps,
  authorization: string | undefined,
  params: Params,
  proof?: ProofInput,
): Promise<{ request_uri: string; expires_in: number }> {
  const { client, authenticated } = await authenticateClient(r, authorization, params);
  if (!authenticated) throw invalidClient('Client authentication failed');
  if (params.request_uri !== undefined) throw invalidRequest('request_uri cannot be pushed (RFC 9126 2.1)');
  const pushed: Params = { ...params, client_id: client.client_id };
  for (const k of CREDENTIALS) delete pushed[k];
  // RFC 9449 10.1: a DPoP proof here binds the code to its key (checked before a request object is used up).
  const proofJkt = proof?.header !== undefined ? (await r.dpop.verify(proof, 'token')).jkt : null;
  const v = await validateAuthorizeRequest(
    pushed,
    [],
    async (id) => (id === client.client_id ? client : undefined),
    r.resources,
    { requestObjects: r.requestObjects },
  );
  // RFC 9126 2.3: the errors of an authorization request, answered here as JSON.
  if (!v.ok) throw v.error;
  // A request object's parameters are kept, verified, in its place (its jti is already used up).
  const stored: Stored = { v: 2, params: v.params, signed: v.signed };
  // A dpop_jkt beside the proof must name its key.
  if (proofJkt !== null) {
    if (v.req.dpopJkt !== undefined && v.req.dpopJkt !== proofJkt)
      throw proofError('token', 'dpop_jkt differs from the key of the DPoP proof');
    stored.params = { ...v.params, dpop_jkt: proofJkt };
  }
  const reference = randomToken(32);
  const now = r.clock.now();
  await r.storage.oneTime.insert({
    digest: digestOf(reference),
    kind: 'par',
    user_id: '',
    client_id: client.client_id,
    payload: JSON.stringify(stored),
    expires_at: now + PAR_TTL_S * 1000,
    consumed_at: null,
    created_at: now,
  });
  await r.events.emit(
    'authorization.pushed',
    { client_id: client.client_id, scope: v.req.scopes.join(' ') || null },
    'an authorization request was pushed (RFC 9126)',
  );
  return { request_uri: `${PAR_PREFIX}${reference}`, expires_in: PAR_TTL_S };
}

/**
 * The pushed parameters a /oauth/authorize query names by its request_uri, used up; null when the
 * query names none Ward holds (its own parameters then stand, and the pipeline refuses the
 * request_uri as request_uri_not_supported). An expired, used or another client's request_uri is
 * invalid_request_uri, on an error page.
 */
export async function pushedParameters(
  r: Pick<ParDeps, 'storage' | 'clock'>,
  query: Params,
): Promise<{ params: Params; signed: boolean } | null> {
  const uri = query.request_uri;
  if (typeof uri !== 'string' || !uri.startsWith(PAR_PREFIX)) return null;
  const refused = (description: string) => new WardError('authorizeInvalidRequestUri', { description });
  if (typeof query.client_id !== 'string' || !query.client_id) throw refused('client_id is required with request_uri');
  const now = r.clock.now();
  const used = await r.storage.oneTime.consume('par', digestOf(uri.slice(PAR_PREFIX.length)), now);
  // Never pushed here (or long forgotten): like any request_uri Ward did not make, request_uri_not_supported.
  if (used.state === 'missing') return null;
  if (used.state === 'reused') throw refused('The request_uri was already used');
  if (used.row.expires_at <= now) throw refused('The request_uri has expired');
  if (used.row.client_id !== query.client_id) throw refused('The request_uri was pushed by another client');
  const kept = JSON.parse(used.row.payload) as Stored | Params;
  // A request pushed by a release before request objects kept its parameters alone.
  if (kept.v === 2 && typeof kept.params === 'object') return { params: kept.params as Params, signed: !!kept.signed };
  return { params: kept as Params, signed: false };
}

/** Whether a request to /oauth/authorize must have been pushed (the account's or the client's rule). */
export const mustBePushed = (client: Pick<Client, 'require_pushed_authorization_requests'>, accountWide: boolean) =>
  accountWide || client.require_pushed_authorization_requests;
