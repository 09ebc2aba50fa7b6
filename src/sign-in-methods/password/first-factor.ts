// The password as a first factor, for every path that takes one (the hosted login form, the Core SDK's
// /identity/v1/password/login, grant_type=password): the accounts service checks it, and every refusal
// is a `login.failed` audit event with its reason before the caller answers it its own way.
import type { PasswordCheck } from '../../accounts/password-sign-in.js';
import type { SignInIdentifier } from '../../accounts/sign-in-identifiers.js';
import type { User } from '../../storage/sql/users.js';
import type { LanguageFor } from '../../texts/choose-language.js';
import { WardError } from '../../errors/ward-error.js';
import { failureReason, type SignInAudit } from '../audit.js';

export interface PasswordCheckDeps {
  users: {
    /**
     * No user for an unknown user, a wrong password and a lite profile alike (`refused` tells the audit
     * which); throws the per-account protection's refusals.
     */
    check(identifier: SignInIdentifier, password: unknown, language?: LanguageFor): Promise<PasswordCheck>;
  };
  audit: Pick<SignInAudit, 'failed'>;
}

export interface PasswordAttempt {
  identifier: SignInIdentifier;
  password: unknown;
  clientId: string;
  ip?: string;
  /** The request's language rule, for the lockout notice. */
  language?: LanguageFor;
  /** What the audit events add for this path (the password grant says so). */
  detail?: Record<string, unknown>;
}

/**
 * The user the password proves, or undefined (recorded as `wrong_password`: an unknown account and a
 * wrong password read the same, in the audit log as in the answer; a lite profile reads the same too,
 * recorded as `lite_profile` with its user). A refusal of the per-account protection or of an
 * unconfirmed email is recorded with its reason, then thrown on.
 */
export async function passwordFirstFactor(deps: PasswordCheckDeps, a: PasswordAttempt): Promise<User | undefined> {
  const failed = (reason: string, userId?: string) =>
    deps.audit.failed({ method: 'password', clientId: a.clientId, ip: a.ip, detail: a.detail, reason, userId });
  let checked: PasswordCheck;
  try {
    checked = await deps.users.check(a.identifier, a.password, a.language);
  } catch (e) {
    if (e instanceof WardError && e.status < 500) await failed(failureReason(e));
    throw e;
  }
  if (checked.refused) await failed(checked.refused.reason, checked.refused.userId);
  else if (!checked.user) await failed('wrong_password');
  return checked.user;
}
