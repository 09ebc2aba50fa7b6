import { WardError } from '../../errors/ward-error.js';
import type { Language } from '../../texts/language.js';
import type { LanguageFor } from '../../texts/choose-language.js';
import { requestLanguage } from '../page-language.js';
import { invalidScope } from '../../errors/refusals.js';
import { parseScope, unknownScopes } from '../../protocol/scopes.js';
import { requiredStr, type Params } from '../../protocol/params.js';
import type { ClientService } from '../../clients/service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface IdentityRequestDeps {
  clients: ClientService;
}

export const isJson = (ct: string | undefined) => !!ct?.startsWith('application/json');

/**
 * The language of an identity API call, for the messages it sends: the one rule of
 * texts/choose-language.ts, where the Core SDK's Custom-Locale header stands for ui_locales (an API
 * call has no interaction), then the weighted Accept-Language, then the account's default.
 */
export const localeOf = (req: { headers: Record<string, string | string[] | undefined> }): Language =>
  languageFor(req)();

/** The same rule once the user is known: their stored locale after Custom-Locale, before Accept-Language. */
export const languageFor =
  (req: { headers: Record<string, string | string[] | undefined> }): LanguageFor =>
  (userLocale) =>
    requestLanguage(req, { uiLocales: req.headers['custom-locale'] as string | undefined, userLocale });

/** The client an identity API call names by client_id: known, and not a resource server. */
export async function clientOf(r: IdentityRequestDeps, params: Params) {
  const id = requiredStr(params, 'client_id', 128);
  const client = await r.clients.find(id);
  if (!client) throw new WardError('unknownClient');
  // A resource server only introspects tokens: it signs no one up or in.
  if (client.type === 'resource_server') throw new WardError('resourceServerOnly');
  return client;
}

/** The scope of an identity API call: space-separated, every value known. */
export function scopeOf(params: Params): string[] {
  const scopes = parseScope(params.scope);
  if (scopes === null) throw invalidScope('scope must be a space-separated string');
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.join(' ')}`);
  return scopes;
}
