// Rule: prompt is none, login or consent, and none stands alone (OIDC Core 3.1.2.1). consent shows a
// third-party client's consent page again (interaction/consent.ts); a first-party client has no
// consent page, so for it consent gets consent_required, as select_account (Ward has no
// account-selection screen) gets account_selection_required; display is one of OIDC's four values;
// max_age is a non-negative integer; state and nonce are bounded strings.
import type { ErrorName } from '../../errors/catalog.js';
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext, AuthorizeRequest } from './request.js';

export const PROMPTS = ['none', 'login', 'consent'] as const;
const UNAVAILABLE = new Map<string, ErrorName>([
  ['consent', 'authorizeConsentRequired'],
  ['select_account', 'authorizeAccountSelectionRequired'],
]);
export const DISPLAYS = ['page', 'popup', 'touch', 'wap'] as const;

export function checkPrompt(ctx: AuthorizeContext): void {
  const { prompt, max_age: maxAge, nonce } = ctx.params;
  if (prompt !== undefined && prompt !== '') {
    if (typeof prompt !== 'string')
      throw new WardError('authorizeInvalidRequest', { description: 'prompt must be a string' });
    const values = prompt.split(' ');
    if (!values.every((v) => (PROMPTS as readonly string[]).includes(v) || UNAVAILABLE.has(v))) {
      throw new WardError('authorizeInvalidRequest', { description: 'prompt must be none or login' });
    }
    if (values.includes('none') && values.length > 1)
      throw new WardError('authorizeInvalidRequest', {
        description: 'prompt=none cannot be combined with other values',
      });
    // A third-party client's consent page exists: prompt=consent asks for it again.
    const thirdParty = ctx.req.client?.first_party === false;
    const unavailable = values.find((v) => UNAVAILABLE.has(v) && !(v === 'consent' && thirdParty));
    if (unavailable)
      throw new WardError(UNAVAILABLE.get(unavailable)!, {
        description: `prompt=${unavailable} is not supported (no such screen)`,
      });
    if (values.includes('none')) ctx.req.prompt = 'none';
    else if (values.includes('login')) ctx.req.prompt = 'login';
    if (values.includes('consent')) ctx.req.promptConsent = true;
  }
  const display = ctx.params.display;
  if (display !== undefined && display !== '') {
    if (!(DISPLAYS as readonly unknown[]).includes(display))
      throw new WardError('authorizeInvalidRequest', { description: 'display must be page, popup, touch or wap' });
    ctx.req.display = display as AuthorizeRequest['display'];
  }
  if (maxAge !== undefined && maxAge !== '') {
    if (typeof maxAge !== 'string' || !/^\d{1,9}$/.test(maxAge))
      throw new WardError('authorizeInvalidRequest', { description: 'max_age must be a non-negative integer' });
    ctx.req.maxAge = Number(maxAge);
  }
  if (nonce !== undefined && nonce !== '') {
    // Stored with the code: PostgreSQL text cannot hold a NUL.
    if (typeof nonce !== 'string' || nonce.length > 512 || nonce.includes('\u0000'))
      throw new WardError('authorizeInvalidRequest', {
        description: 'nonce must be a string of at most 512 characters, without NUL characters',
      });
    ctx.req.nonce = nonce;
  }
  const uiLocales = ctx.params.ui_locales;
  if (uiLocales !== undefined && uiLocales !== '') {
    if (typeof uiLocales !== 'string' || uiLocales.length > 200 || !/^[A-Za-z0-9_ -]+$/.test(uiLocales))
      throw new WardError('authorizeInvalidRequest', {
        description: 'ui_locales must be space-separated language tags',
      });
    ctx.req.uiLocales = uiLocales;
  }
  const loginHint = ctx.params.login_hint;
  if (typeof loginHint === 'string' && loginHint !== '') ctx.req.loginHint = loginHint.slice(0, 320);
  const hint = ctx.params.id_token_hint;
  if (hint !== undefined && hint !== '') {
    if (typeof hint !== 'string' || hint.length > 8192)
      throw new WardError('authorizeInvalidRequest', { description: 'id_token_hint must be an ID token' });
    ctx.req.idTokenHint = hint;
  }
  const tkn = ctx.params.tkn;
  if (typeof tkn === 'string' && tkn !== '') ctx.req.tkn = tkn;
}
