import type { Static } from 'typebox';
import type { WardApp } from '../typed-app.js';
import { WardError } from '../../errors/ward-error.js';
import { requestLanguage } from '../page-language.js';
import { authorizationServerMetadata } from '../../protocol/discovery.js';
import { authorizationServerSchema, discoverySchema, jwksSchema } from './schemas/metadata.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { KeyStore } from '../../keys/key-store.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface MetadataDeps {
  account: () => AccountSettings;
  clients: ClientService;
  config: WardConfig;
  keys: KeyStore;
}

/** Discovery and the JWK Set: pre-serialised bodies, short public caching, ETag. */
export function metadataRoutes(app: WardApp, r: MetadataDeps): void {
  // Pre-serialised: Fastify sends a string as it is (the schema describes it; nothing re-serialises it).
  // One body per state of the account's registration settings and require_signed_request_object (at
  // most eight), built when first asked: registration_endpoint, client_id_metadata_document_supported
  // and require_signed_request_object follow the settings.
  const bodies = new Map<string, string>();
  const document = () => {
    const { client_registration: reg, require_signed_request_object: signedOnly } = r.account();
    const key = `${reg.mode !== 'off'}:${reg.metadata_documents}:${signedOnly}`;
    let body = bodies.get(key);
    if (!body) bodies.set(key, (body = JSON.stringify(authorizationServerMetadata(r.config.issuer, reg, signedOnly))));
    return body as unknown as Static<(typeof discoverySchema.response)[200]>;
  };
  app.get('/.well-known/openid-configuration', { schema: discoverySchema }, (_req, reply) => {
    reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send(document());
  });
  // RFC 8414 beside OpenID discovery: the same metadata (the MCP authorization specification asks here first).
  app.get('/.well-known/oauth-authorization-server', { schema: authorizationServerSchema }, (_req, reply) => {
    reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send(document());
  });
  app.get('/jwks.json', { schema: jwksSchema }, async (req, reply) => {
    const clientId = req.query.client_id;
    let view = r.keys.jwks();
    if (clientId !== undefined) {
      const client = typeof clientId === 'string' ? await r.clients.find(clientId) : undefined;
      if (!client) {
        reply.code(404).send(new WardError('unknownClientKeys').body(requestLanguage(req)));
        return reply;
      }
      view = r.keys.jwksOfClient(client.client_id, client.key_mode, client.jwt_algorithm);
    }
    reply.header('Cache-Control', 'public, max-age=60').header('ETag', view.etag);
    if (req.headers['if-none-match'] === view.etag) return reply.code(304).send();
    return reply.header('Content-Type', 'application/json; charset=utf-8').send(view.body);
  });
}
