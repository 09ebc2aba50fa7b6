import { Type } from 'typebox';
import { stringEnum } from '../../schema-types.js';
import { answer } from '../../protocol-schema.js';

export const healthSchema = { response: { 200: answer({ status: stringEnum(['ok']) }) } };

const readiness = answer({
  status: stringEnum(['ready', 'not_ready']),
  checks: answer({ database: Type.Boolean(), keys: Type.Boolean(), accepting: Type.Boolean(), schema: Type.Boolean() }),
});

/** 200 when ready, 503 with the same body when a check fails. */
export const readySchema = { response: { 200: readiness, 503: readiness } };

/** GET /metrics: Prometheus text exposition (version 0.0.4), not JSON. */
export const metricsSchema = {
  response: {
    200: {
      content: {
        'text/plain': { schema: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) },
      },
    },
  },
};
