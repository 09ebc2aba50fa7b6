import type { FastifyInstance } from 'fastify';
import type { Storage } from '../storage/storage.js';

/**
 * Every answer waits for the commit of the writes made before it (SQLite's group commit,
 * `storage/engine/group-commit.ts`): a client is never handed a token, code or "done" whose rows a crash
 * could still take back. If that commit failed, the answer becomes the server error it is.
 * On PostgreSQL each statement is committed when it returns, so nothing waits.
 */
export function installDurableAnswers(app: FastifyInstance, storage: Pick<Storage, 'settled'>): void {
  app.addHook('onSend', (_req, _reply, payload, done) => {
    const pending = storage.settled();
    if (pending === undefined) return done(null, payload);
    pending.then(
      () => done(null, payload),
      (e: unknown) => done(e instanceof Error ? e : new Error(String(e))),
    );
  });
}
