// Rule: client authentication at the token, revocation and introspection endpoints (RFC 6749 section
// 2.3.1). client_secret_basic or client_secret_post, never both; public clients send only client_id and
// never a secret; a confidential client (or resource server) without a valid secret is invalid_client
// (401, with WWW-Authenticate when Basic was used).
import { invalidClient, invalidRequest } from '../../errors/refusals.js';
import type { Params } from '../params.js';
import type { ClientService, Client } from '../../clients/service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ClientAuthDeps {
  clients: ClientService;
}

export interface AuthenticatedClient {
  client: Client;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
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
  if (authorization && /^basic /i.test(authorization)) {
    const basic = parseBasic(authorization);
    if (!basic) throw invalidClient('Malformed Basic credentials', true);
    if (bodySecret)
      throw invalidRequest('Use one client authentication method: Basic or client_secret in the body, not both');
    if (bodyId && bodyId !== basic.id) throw invalidRequest('client_id differs from the Basic credentials');
    const client = await r.clients.find(basic.id);
    if (!client || client.type === 'public' || !r.clients.checkSecret(client, basic.secret))
      throw invalidClient('Client authentication failed', true);
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
  return { client, method: 'client_secret_post', authenticated: true };
}
