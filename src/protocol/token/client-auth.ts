// Rule: client authentication at the token, revocation and introspection endpoints (RFC 6749 section
// 2.3.1). client_secret_basic or client_secret_post, never both; public clients send only client_id and
// never a secret; a confidential client (or resource server) without a valid secret is invalid_client
// (401, with WWW-Authenticate when Basic was used). A client assertion (private_key_jwt,
// client_secret_jwt: client-assertion.ts) goes with no other credentials (invalid_request), and a
// client uses only the method it is registered for (token_endpoint_auth_method; null: a secret).
import { invalidClient, invalidRequest } from '../../errors/refusals.js';
import type { Params } from '../params.js';
import type { ClientService, Client } from '../../clients/service.js';
import { type ClientAssertionDeps, JWT_BEARER_ASSERTION, verifyClientAssertion } from './client-assertion.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ClientAuthDeps {
  clients: ClientService;
  /** Verifies client assertions: the client's keys, the jti store, the clock and the issuer. */
  clientAssertions: Omit<ClientAssertionDeps, 'clients'>;
}

export interface AuthenticatedClient {
  client: Client;
  method: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt' | 'none';
  /**
   * False only for a confidential client that sent no secret at all: allowed solely to redeem a
   * Messenger code (the product specification's chatbot exchange); every other use is invalid_client.
   */
  authenticated: boolean;
}

function parseBasic(header: string): { id: string; secret: string } | null {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/** A client registered for an assertion never authenticates with its secret. */
function secretAllowed(client: Client, method: 'client_secret_basic' | 'client_secret_post'): void {
  const registered = client.token_endpoint_auth_method;
  if (registered === 'private_key_jwt' || registered === 'client_secret_jwt')
    throw invalidClient(
      `This client is registered for ${registered}: send a client_assertion`,
      method === 'client_secret_basic',
    );
  if (registered && registered !== method)
    throw invalidClient(`This client is registered for ${registered}`, method === 'client_secret_basic');
}

async function byAssertion(
  r: ClientAuthDeps,
  authorization: string | undefined,
  params: Params,
): Promise<AuthenticatedClient> {
  const { client_assertion: assertion, client_assertion_type: type, client_secret: secret, client_id: id } = params;
  if (typeof assertion !== 'string' || typeof type !== 'string' || !assertion)
    throw invalidRequest('client_assertion and client_assertion_type go together, each once');
  if (type !== JWT_BEARER_ASSERTION) throw invalidRequest(`client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
  if ((authorization && /^basic /i.test(authorization)) || (secret !== undefined && secret !== null))
    throw invalidRequest('Use one client authentication method: a client_assertion and no secret');
  const { client, method } = await verifyClientAssertion(
    { ...r.clientAssertions, clients: r.clients },
    assertion,
    typeof id === 'string' ? id : undefined,
  );
  return { client, method, authenticated: true };
}

export async function authenticateClient(
  r: ClientAuthDeps,
  authorization: string | undefined,
  params: Params,
): Promise<AuthenticatedClient> {
  const bodySecret = params.client_secret;
  const bodyId = params.client_id;
  if (bodySecret !== undefined && bodySecret !== null && typeof bodySecret !== 'string')
    throw invalidRequest('client_secret must be a string');
  if (bodyId !== undefined && bodyId !== null && typeof bodyId !== 'string')
    throw invalidRequest('client_id must be a string');
  if (params.client_assertion !== undefined || params.client_assertion_type !== undefined)
    return byAssertion(r, authorization, params);
  if (authorization && /^basic /i.test(authorization)) {
    const basic = parseBasic(authorization);
    if (!basic) throw invalidClient('Malformed Basic credentials', true);
    if (bodySecret)
      throw invalidRequest('Use one client authentication method: Basic or client_secret in the body, not both');
    if (bodyId && bodyId !== basic.id) throw invalidRequest('client_id differs from the Basic credentials');
    const client = await r.clients.find(basic.id);
    if (!client || client.type === 'public' || !r.clients.checkSecret(client, basic.secret))
      throw invalidClient('Client authentication failed', true);
    secretAllowed(client, 'client_secret_basic');
    return { client, method: 'client_secret_basic', authenticated: true };
  }
  if (!bodyId) {
    if (bodySecret) throw invalidClient('client_secret was sent without client_id');
    throw invalidClient('client_id is required');
  }
  const client = await r.clients.find(bodyId);
  if (!client) throw invalidClient('Client authentication failed');
  if (client.type === 'public') {
    if (bodySecret) throw invalidClient('A public client has no secret');
    return { client, method: 'none', authenticated: true };
  }
  if (bodySecret === undefined || bodySecret === null || bodySecret === '')
    return { client, method: 'none', authenticated: false };
  // A secret that is sent is always checked.
  if (!r.clients.checkSecret(client, bodySecret)) throw invalidClient('Client authentication failed');
  secretAllowed(client, 'client_secret_post');
  return { client, method: 'client_secret_post', authenticated: true };
}
