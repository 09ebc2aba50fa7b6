import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';
import { nullable } from '../../schema-types.js';

/** GET /identity/v1/me/sessions: with a user's access token, where the user is signed in. */
export const listMySessionsSchema = {
  response: {
    200: answer({
      sessions: Type.Array(
        answer({
          id: Type.String({ description: 'the id to end it with (not a cookie, opens nothing)' }),
          browser: nullable(Type.String({ description: "the browser and its major version, e.g. 'Firefox 133'" })),
          os: nullable(Type.String({ description: 'the operating system, e.g. macOS' })),
          created_at: Type.String({ format: 'date-time' }),
          last_used_at: Type.String({ format: 'date-time' }),
          amr: Type.Array(Type.String()),
          current: Type.Boolean({ description: "the session this access token's sign-in opened" }),
          place: nullable(
            Type.Object(
              { city: nullable(Type.String()), country: nullable(Type.String()) },
              {
                description:
                  'the approximate place of the address it signed in from, in the language of Accept-Language, when a local GeoIP database is configured (WARD_GEOIP_DATABASE); else null',
              },
            ),
          ),
        }),
      ),
    }),
  },
};

/** DELETE /identity/v1/me/sessions/:id: ends that session, its tokens; its clients get a logout token. */
export const endMySessionSchema = {
  params: protocolParams({ id: "string: a session's id from the list" }),
};

/** GET /identity/v1/me/security-events: the user's recent sign-ins and changes, from the audit trail. */
export const mySecurityEventsSchema = {
  response: {
    200: answer({
      events: Type.Array(
        answer({
          type: Type.String({ description: "the audit action, e.g. 'login.succeeded', 'account.password_changed'" }),
          at: Type.String({ format: 'date-time' }),
          ip: nullable(Type.String()),
          by: Type.String({ description: 'user, or administrator when done to the account' }),
          detail: nullable(Type.String({ description: 'the sign-in method or factor type, when named' })),
        }),
      ),
    }),
  },
};
