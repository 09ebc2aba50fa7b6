// Rule: prompt is none, login, consent or select_account, and none stands alone (OIDC Core
// 3.1.2.1); display is one of OIDC's four values; max_age is a non-negative integer; state and
// nonce are bounded strings.
import { AuthorizeError } from '../../errors/oauth-error.js';
import type { AuthorizeContext, AuthorizeRequest } from './request.js';

const PROMPTS = new Set(['none', 'login', 'consent', 'select_account']);
export const DISPLAYS = ['page', 'popup', 'touch', 'wap'] as const;

export function checkPrompt(ctx: AuthorizeContext): void {
  const { prompt, max_age: maxAge, nonce } = ctx.params;
  if (prompt !== undefined && prompt !== '') {
    if (typeof prompt !== 'string') throw new AuthorizeError('invalid_request', 'prompt must be a string', true);
    const values = prompt.split(' ');
    if (!values.every((v) => PROMPTS.has(v)))
      throw new AuthorizeError('invalid_request', 'prompt must be none, login, consent or select_account', true);
    if (values.includes('none') && values.length > 1)
      throw new AuthorizeError('invalid_request', 'prompt=none cannot be combined with other values', true);
    ctx.req.prompt = (
      values.includes('none') ? 'none' : values.includes('login') ? 'login' : values[0]
    ) as AuthorizeRequest['prompt'];
  }
  const display = ctx.params.display;
  if (display !== undefined && display !== '') {
    if (!(DISPLAYS as readonly unknown[]).includes(display))
      throw new AuthorizeError('invalid_request', 'display must be page, popup, touch or wap', true);
    ctx.req.display = display as AuthorizeRequest['display'];
  }
  if (maxAge !== undefined && maxAge !== '') {
    if (typeof maxAge !== 'string' || !/^\d{1,9}$/.test(maxAge))
      throw new AuthorizeError('invalid_request', 'max_age must be a non-negative integer', true);
    ctx.req.maxAge = Number(maxAge);
  }
  if (nonce !== undefined && nonce !== '') {
    // Stored with the code: PostgreSQL text cannot hold a NUL.
    if (typeof nonce !== 'string' || nonce.length > 512 || nonce.includes('\u0000'))
      throw new AuthorizeError(
        'invalid_request',
        'nonce must be a string of at most 512 characters, without NUL characters',
        true,
      );
    ctx.req.nonce = nonce;
  }
  const hint = ctx.params.id_token_hint;
  if (hint !== undefined && hint !== '') {
    if (typeof hint !== 'string' || hint.length > 8192)
      throw new AuthorizeError('invalid_request', 'id_token_hint must be an ID token', true);
    ctx.req.idTokenHint = hint;
  }
  const tkn = ctx.params.tkn;
  if (typeof tkn === 'string' && tkn !== '') ctx.req.tkn = tkn;
}
