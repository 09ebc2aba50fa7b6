// The admin console's own OAuth client, `ward-console`: a first-party public client (code flow with
// PKCE S256) whose callback is <issuer>/console/callback, allowed origin the issuer's origin, RS256,
// and every management scope, so a console user's token carries their role's permissions. Created at
// each start when missing or out of date (idempotent: an unchanged client is not written again).
import { MANAGEMENT_SCOPES } from '../config/types.js';
import { Problems, validateClient } from '../config/validate.js';
import type { ClientService } from '../clients/service.js';
import { CONSOLE_CLIENT_ID } from '../clients/system.js';

export { CONSOLE_CLIENT_ID };

export function consoleClientDefinition(issuer: string) {
  return {
    client_id: CONSOLE_CLIENT_ID,
    name: 'Ward console',
    type: 'public',
    jwt_algorithm: 'RS256',
    allowed_callback_urls: [`${issuer}/console/callback`],
    allowed_origins: [new URL(issuer).origin],
    sso: false,
    scope: 'openid profile email',
    management_scopes: [...MANAGEMENT_SCOPES],
  };
}

interface Deps {
  config: { issuer: string };
  clients: Pick<ClientService, 'find' | 'upsert'>;
}

export async function ensureConsoleClient(r: Deps): Promise<void> {
  const p = new Problems();
  const def = validateClient(p, 'ward-console', consoleClientDefinition(r.config.issuer));
  if (!def) throw new Error(`the console client is invalid: ${p.list.join('; ')}`);
  const existing = await r.clients.find(CONSOLE_CLIENT_ID);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (
    existing &&
    existing.type === 'public' &&
    existing.jwt_algorithm === 'RS256' &&
    same(existing.allowed_callback_urls, def.allowed_callback_urls) &&
    same(existing.allowed_origins, def.allowed_origins) &&
    same(existing.management_scopes, def.management_scopes)
  )
    return;
  await r.clients.upsert(def, 'config');
}
