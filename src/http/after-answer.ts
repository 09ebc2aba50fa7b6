import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { AfterAnswer, Background } from '../lib/background.js';

/**
 * How long the work waits once the answer has left: long enough for a proxy or a client on the same
 * host to read it before the work takes a core (bench/forgot-password-timing.ts: starting at once left
 * the known address ~1-2 ms slower at the median on a loaded 2-core machine; 5 ms removed it).
 */
export const AFTER_ANSWER_DELAY_MS = 5;

/**
 * Work that must not be part of an answer's time (forgot-password, account recovery: whether an
 * account exists must not show in it): it starts in the background once the answer has been handed
 * to the network ('finish'), or once the connection closed before that ('close'), and a few
 * milliseconds more (AFTER_ANSWER_DELAY_MS). The answer itself
 * waits for the commit of the request's own writes (durable-answers.ts), so the work never joins
 * that commit. A server error drops the work: the request was not counted, so it sends nothing.
 */
export function afterAnswer(reply: FastifyReply, background: Background): AfterAnswer {
  return (work) => {
    const res = reply.raw;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      res.off('finish', start);
      res.off('close', start);
      if (res.statusCode < 500) background.run(() => sleep(AFTER_ANSWER_DELAY_MS).then(work));
    };
    if (res.writableFinished || res.destroyed) return start();
    res.once('finish', start);
    res.once('close', start);
  };
}
