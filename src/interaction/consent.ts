// Consent (issue 39): a third-party client (`first_party: false`) gets a user's data only for the
// scopes the user granted it on the consent page. The grant is remembered per user and client
// (storage/sql/consents.ts), so the page comes back only for scopes not granted yet, or when the
// request says prompt=consent. A first-party client never asks: nothing changes for it.
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/** Whether this request, for a user who granted `granted` to its client, needs the consent page. */
export function consentNeeded(
  request: Pick<AuthorizeRequest, 'client' | 'scopes' | 'promptConsent' | 'device'>,
  granted: string[],
) {
  // A device's sign-in always shows its approval page (RFC 8628 5.4: the user confirms the device).
  if (request.device) return true;
  if (request.client.first_party) return false;
  if (request.promptConsent) return true;
  const have = new Set(granted);
  return request.scopes.some((s) => !have.has(s));
}

/**
 * Whether a consent page can be shown for this request: not for prompt=none, nor for the SDK's
 * web_message mode (an iframe no one sees); there the answer is consent_required (OIDC Core 3.1.2.6).
 */
export const consentCanBeShown = (request: Pick<AuthorizeRequest, 'prompt' | 'responseMode'>): boolean =>
  request.prompt !== 'none' && request.responseMode !== 'web_message';
