import { type TProperties, type TUnsafe, Type } from 'typebox';
import type { Params } from '../protocol/params.js';
import { partialObject } from './schema-types.js';

/**
 * The parameters of a request whose rules are protocol rules (OAuth/OIDC endpoints and the Core SDK's
 * identity API, which take a form or JSON): the schema names each parameter and says what it is, and
 * validates nothing. A repeated form parameter (an array), a wrong type, a missing value or a body
 * that is no object at all still reach the route, whose checks (protocol/params.ts: RFC 6749 3.1, ...)
 * answer the exact catalog error. No `type` keyword: an absent body passes too.
 */
export function protocolParams(params: Record<string, string>): TUnsafe<Params> {
  const properties = Object.fromEntries(Object.entries(params).map(([name, what]) => [name, { description: what }]));
  return Type.Unsafe<Params>({ properties, additionalProperties: true });
}

/** What the Core SDK sends where the account may ask a captcha (captcha/siteverify.ts). */
export const captchaParams = {
  captcha_token: "string: the captcha widget's token, when the account's captcha applies here",
  captcha_provider: 'string: recaptcha or captchafox (the SDK names it); must be the account provider',
};

/**
 * A success answer: the fields it may have, typed, none required (the serializer would throw on a
 * missing one), with `additionalProperties: true` so that Fastify's serializer (which drops fields a
 * schema does not list) never removes one a client reads.
 */
export const answer = <P extends TProperties>(properties: P) =>
  partialObject(properties, { additionalProperties: true });
