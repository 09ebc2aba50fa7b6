import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';

/** The relying party passkeys are bound to: its ID, its name, and the origins a ceremony may come from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/**
 * The account's relying party: rp_id and origins from the passkey settings, else the issuer's host
 * and origin. Refuses when passkeys are off.
 */
export function relyingParty(account: Pick<AccountSettings, 'passkeys'>, issuer: string): RelyingParty {
  const s = account.passkeys;
  if (!s.enabled) throw new WardError('passkeysDisabled');
  const url = new URL(issuer);
  return {
    id: s.rp_id ?? url.hostname,
    name: s.rp_name,
    origins: s.origins.length ? s.origins : [url.origin],
  };
}

/** The origin a ceremony names (the SDK sends the page's): one of the relying party's, or a refusal. */
export function allowedOrigin(rp: RelyingParty, origin: unknown): string {
  if (typeof origin !== 'string' || !rp.origins.includes(origin)) {
    throw new WardError('passkeyOrigin', {
      description: `origin must be one of the origins allowed for passkeys (${rp.origins.join(', ')})`,
    });
  }
  return origin;
}

/** Whether Ward's own pages may run a ceremony: passkeys on and the issuer's origin one of the origins. */
export function hostedCeremonies(account: Pick<AccountSettings, 'passkeys'>, issuer: string): boolean {
  return account.passkeys.enabled && relyingParty(account, issuer).origins.includes(new URL(issuer).origin);
}
