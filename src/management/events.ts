import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import { recordAudit } from './audit.js';

type Level = 'info' | 'warn' | 'error';

/** Outcome of an event by its name: refusals and failures are not successes. */
function outcomeOf(name: string): 'success' | 'failed' | 'denied' {
  if (/(failed|reused|refused|limit_reached)$/.test(name)) return name.endsWith('limit_reached') || name.endsWith('refused') ? 'denied' : 'failed';
  return 'success';
}

/**
 * Security-relevant outcomes (login.failed, code.reused, mfa.code_sent, mfa.verification_failed,
 * mfa.stepup_verified, ...): one named log line and one row of the audit log, with who and for which
 * client. Never a secret in either: callers pass ids and reasons only.
 */
export function createSecurityEvents(deps: { storage: Storage; log: Logger; clock: Clock }) {
  return {
    async emit(name: string, fields: Record<string, unknown>, message: string, level: Level = 'info'): Promise<void> {
      deps.log[level]({ event: name, ...fields }, message);
      const userId = typeof fields.user_id === 'string' ? fields.user_id : null;
      const clientId = typeof fields.client_id === 'string' ? fields.client_id : null;
      const { user_id: _u, client_id: _c, ...details } = fields;
      await recordAudit(deps.storage, deps.clock.now(), { type: userId ? 'user' : 'client', id: userId ?? clientId ?? 'anonymous', ip: typeof fields.ip === 'string' ? fields.ip : null },
        name, clientId ? `client:${clientId}` : null, outcomeOf(name), details).catch((e: unknown) => deps.log.error({ err: e }, 'audit write failed'));
    },
  };
}

export type SecurityEvents = ReturnType<typeof createSecurityEvents>;
