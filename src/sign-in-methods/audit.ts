// The audit events every sign-in method records, whatever its path (hosted page, Core SDK, token
// endpoint): `login.succeeded` with the method and the client, `login.mfa_required` when the first
// factor was right but a second one is owed, `login.failed` with a reason. One shape for all, so the
// audit log answers "who signed in to which client, how" and "which sign-ins failed, why" by one filter.
import type { WardError } from '../errors/ward-error.js';
import type { SignInMethodId } from './contract.js';

/** What the audit needs: the security events (audit/events.ts), which log, count and store each one. */
export interface SecurityEventSink {
  emit(
    name: string,
    fields: Record<string, unknown>,
    message: string,
    level?: 'info' | 'warn' | 'error',
  ): Promise<void>;
  /** An acknowledged event whose webhook outbox rows are written before the answer (audit/events.ts). */
  emitNow(name: string, fields: Record<string, unknown>, message: string): Promise<void>;
}

/** One sign-in attempt: by which method, for which client, from where (ids and reasons only, never a secret). */
export interface SignInAttempt {
  method: SignInMethodId;
  clientId?: string;
  ip?: string;
  /** Method-specific facts worth keeping (the social provider, whether the account was created now). */
  detail?: Record<string, unknown>;
}

export interface SignInAudit {
  /** A first factor proved the user and nothing more is owed. */
  succeeded(a: SignInAttempt & { userId: string; amr: readonly string[] }): Promise<void>;
  /** A first factor proved the user, and the account wants a second one (next-step decided). */
  mfaRequired(a: SignInAttempt & { userId: string; amr: readonly string[] }): Promise<void>;
  /** The attempt was refused; `reason` is a short fixed word (failureReason), `userId` when known. */
  failed(a: SignInAttempt & { reason: string; userId?: string }): Promise<void>;
}

/**
 * Why a refusal thrown by a sign-in is a failure, as the audit says it: the reason the thrower kept for
 * the audit (a lite profile refused like an unknown user), the per-account protection's lockout and
 * wait, an email still to confirm, else the catalog's message key. The same for every path.
 */
export function failureReason(e: WardError): string {
  if (e.audit) return e.audit.reason;
  if (e.id === 'accountLocked') return 'locked';
  if (e.id === 'signInDelayed') return 'delayed';
  if (e.id === 'emailNotVerified') return 'email_not_verified';
  return e.entry.key;
}

const fieldsOf = (a: SignInAttempt) => ({
  method: a.method,
  ...(a.clientId ? { client_id: a.clientId } : {}),
  ...(a.ip ? { ip: a.ip } : {}),
  ...a.detail,
});

/** The sign-in audit over the security events. Stateless: any module may make its own over the same sink. */
export function signInAudit(events: SecurityEventSink): SignInAudit {
  return {
    // Acknowledged at once (a tkn, tokens or a session follow): its webhook event is written before that.
    succeeded: (a) =>
      events.emitNow('login.succeeded', { ...fieldsOf(a), user_id: a.userId, amr: a.amr }, `${a.method} sign-in`),
    mfaRequired: (a) =>
      events.emit(
        'login.mfa_required',
        { ...fieldsOf(a), user_id: a.userId, amr: a.amr },
        `${a.method} sign-in: a second factor is required`,
      ),
    failed: (a) =>
      events.emit(
        'login.failed',
        { ...fieldsOf(a), reason: a.reason, ...(a.userId ? { user_id: a.userId } : {}) },
        `${a.method} sign-in failed`,
      ),
  };
}
