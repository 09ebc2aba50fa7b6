// The hooks as the modules that create users and issue tokens see them: accounts/users.ts declares
// BeforeSignup, protocol/id-token.ts BeforeToken; these build them on the hook caller, with the
// context each event's hooks receive as `data` (docs/hooks.md).
import type { BeforeSignup } from '../accounts/users.js';
import type { BeforeToken } from '../protocol/id-token.js';
import type { BeforeLogin } from '../protocol/tkn.js';
import type { User } from '../storage/sql/users.js';
import type { HookCaller } from './caller.js';

/** before.signup: `{method, provider?, user: {email, phone_number, given_name, family_name, ..., custom_fields}}`. */
export const beforeSignupHooks =
  (caller: Pick<HookCaller, 'run'>): BeforeSignup =>
  async (attempt) => {
    const data = {
      method: attempt.method,
      ...(attempt.provider ? { provider: attempt.provider } : {}),
      user: attempt.profile,
    };
    const allowed = await caller.run('before.signup', data, (answer) => {
      if (answer.custom_fields) attempt.checkFields(answer.custom_fields);
    });
    return allowed.custom_fields;
  };

/** A user as a hook sees them: ids, identifiers and names, never a secret. */
const publicUser = (u: User) => ({
  id: u.id,
  email: u.email,
  email_verified: u.email_verified,
  phone_number: u.phone_number,
  phone_number_verified: u.phone_number_verified,
  given_name: u.given_name,
  family_name: u.family_name,
});

/** The sign-in method of an SDK first factor that minted a tkn, from its amr (RFC 8176). */
const methodOfAmr = (amr: string[]): string =>
  amr.includes('pwd') ? 'password' : amr.includes('hwk') || amr.includes('swk') ? 'passkey' : 'other';

/** before.login: `{method, client_id, user: {id, email, ...}, amr}`. */
export const beforeLoginHooks =
  (caller: Pick<HookCaller, 'run' | 'has'>, users: { findById(id: string): Promise<User | undefined> }): BeforeLogin =>
  async (attempt) => {
    if (!(await caller.has('before.login'))) return;
    const u = await users.findById(attempt.userId);
    if (!u) return;
    await caller.run('before.login', {
      method: attempt.method ?? methodOfAmr(attempt.amr),
      client_id: attempt.clientId,
      user: publicUser(u),
      amr: attempt.amr,
    });
  };

/** before.token: `{client_id, user: {id, email, ...} | null, scopes, amr, tokens}`. */
export const beforeTokenHooks =
  (caller: Pick<HookCaller, 'run'>): BeforeToken =>
  async (attempt) => {
    const u = attempt.user;
    const data = {
      client_id: attempt.client_id,
      user: u && publicUser(u),
      scopes: attempt.scopes,
      amr: attempt.amr,
      tokens: attempt.tokens,
    };
    return (await caller.run('before.token', data)).claims;
  };
