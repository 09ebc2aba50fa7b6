// What a hook answers, read strictly: a 2xx whose JSON body is
//   {"decision": "allow", "custom_fields"?: {...}}   (before.signup)
//   {"decision": "allow", "claims"?: {...}}          (before.token)
//   {"decision": "allow"}                            (before.login)
//   {"decision": "deny", "message_key"?: "...", "message"?: "..."}
// Anything else (another status, not JSON, an unknown decision or member, a claim Ward reserves) is
// a malformed answer: the hook's failure policy applies.
import type { HookEvent } from './events.js';
import { REGISTERED_CLAIMS } from './events.js';

export type HookAnswer =
  | { decision: 'allow'; custom_fields?: Record<string, unknown>; claims?: Record<string, unknown> }
  | { decision: 'deny'; message_key?: string; message?: string };

/** Why an answer is refused (the failure policy then applies). */
export class MalformedAnswer extends Error {
  override name = 'MalformedAnswer';
}

const MESSAGE_KEY = /^[A-Za-z0-9_.-]{1,100}$/;
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/;
const MAX_MESSAGE = 500;
const MAX_CLAIMS_JSON = 4096;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function only(o: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  if (extra.length) throw new MalformedAnswer(`unexpected member(s): ${extra.join(', ')}`);
}

/** The claims a before.token hook adds: not a registered name, small. */
export function checkClaims(claims: unknown): Record<string, unknown> {
  if (!isObject(claims)) throw new MalformedAnswer('claims must be an object');
  for (const name of Object.keys(claims)) {
    if (REGISTERED_CLAIMS.has(name)) throw new MalformedAnswer(`claim "${name}" is a registered claim`);
    if (!CLAIM_NAME.test(name)) throw new MalformedAnswer(`claim name "${name.slice(0, 100)}" is not allowed`);
  }
  if (JSON.stringify(claims).length > MAX_CLAIMS_JSON)
    throw new MalformedAnswer(`claims take more than ${MAX_CLAIMS_JSON} bytes`);
  return claims;
}

export function readAnswer(event: HookEvent, text: string): HookAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MalformedAnswer('the answer is not JSON');
  }
  if (!isObject(body)) throw new MalformedAnswer('the answer is not a JSON object');
  if (body.decision === 'deny') {
    only(body, ['decision', 'message_key', 'message']);
    const { message_key, message } = body;
    if (message_key !== undefined && (typeof message_key !== 'string' || !MESSAGE_KEY.test(message_key)))
      throw new MalformedAnswer('message_key must be 1 to 100 letters, digits, dots, dashes or underscores');
    if (message !== undefined && (typeof message !== 'string' || !message.trim() || message.length > MAX_MESSAGE))
      throw new MalformedAnswer(`message must be a text of 1 to ${MAX_MESSAGE} characters`);
    return {
      decision: 'deny',
      ...(message_key !== undefined ? { message_key } : {}),
      ...(message !== undefined ? { message } : {}),
    };
  }
  if (body.decision !== 'allow') throw new MalformedAnswer('decision must be "allow" or "deny"');
  if (event === 'before.login') {
    only(body, ['decision']);
    return { decision: 'allow' };
  }
  if (event === 'before.signup') {
    only(body, ['decision', 'custom_fields']);
    if (body.custom_fields !== undefined && !isObject(body.custom_fields))
      throw new MalformedAnswer('custom_fields must be an object');
    return { decision: 'allow', ...(body.custom_fields ? { custom_fields: body.custom_fields } : {}) };
  }
  only(body, ['decision', 'claims']);
  return { decision: 'allow', ...(body.claims !== undefined ? { claims: checkClaims(body.claims) } : {}) };
}
