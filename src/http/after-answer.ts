import type { FastifyReply } from 'fastify';
import type { AfterAnswer, Background } from '../lib/background.js';

/**
 * Work that must not be part of an answer's time (forgot-password, account recovery: whether an
 * account exists must not show in it): it starts in the background once the answer has been handed
 * to the network ('finish'), or once the connection closed before that ('close'). The answer itself
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
      if (res.statusCode < 500) background.run(work);
    };
    if (res.writableFinished || res.destroyed) return start();
    res.once('finish', start);
    res.once('close', start);
  };
}
