import type { FastifyReply } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { CHANGED_ELSEWHERE, type ProfileService } from '../../accounts/profiles.js';
import { extrasView } from '../../accounts/profile-extras.js';
import { unlinkIdentity } from '../../accounts/unlink.js';
import { missingField } from '../../errors/refusals.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { headerOrBodyToken, resourceRequest } from '../resource-request.js';
import { requireSingle, str, type Params } from '../../protocol/params.js';
import { claimsFor } from '../../protocol/scopes.js';
import { isJson, localeOf } from './identity-request.js';
import { unlinkSchema, updateProfileSchema, userinfoPostSchema, userinfoSchema } from './schemas/profile.js';
import type { UserService } from '../../accounts/users.js';
import type { AccountSettings } from '../../config/types.js';
import type { ConsentChanges } from '../../accounts/consent-changes.js';
import type { Clock } from '../../lib/clock.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface Deps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clock: Clock;
  consentChanges: ConsentChanges;
  profiles: ProfileService;
  storage: Storage;
  users: UserService;
}

/** The names `fields` asks for, or null for all. */
function fieldsOf(q: Params): Set<string> | null {
  const fields = str(q, 'fields', 1000);
  return fields === undefined
    ? null
    : new Set(
        fields
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      );
}

/**
 * The signed-in user's own profile (Bearer access token): userinfo (claims by scope, custom fields and
 * linked identities with `profile`, only `fields` when given), update-profile and unlink.
 */
export function profileRoutes(app: WardApp, r: Deps): void {
  const actorOf = (userId: string, ip: string) => ({ type: 'user' as const, id: userId, ip });

  const userinfo = async (
    req: {
      headers: Record<string, string | string[] | undefined>;
      query: unknown;
      body?: unknown;
      method: string;
      url: string;
    },
    reply: FastifyReply,
  ) => {
    const ctx = await verifyBearer(r, resourceRequest(req, headerOrBodyToken(req)));
    const fields = fieldsOf(requireSingle(req.query ?? {}));
    const profile = await r.storage.profiles.find(ctx.user.id);
    const body: Record<string, unknown> = {
      sub: ctx.user.id,
      id: ctx.user.id,
      ...claimsFor(ctx.user, ctx.scopes, profile),
    };
    if (ctx.scopes.includes('profile')) {
      // The reads of their own tables, each only when the caller asked for its field (getUser names them).
      const wants = (k: string) => !fields || fields.has(k);
      const [customIdentifier, consents, identities] = await Promise.all([
        wants('custom_identifier') ? r.storage.customIdentifiers.ofUser(ctx.user.id) : undefined,
        wants('consents') ? r.consentChanges.of(ctx.user.id) : undefined,
        wants('identities') ? r.storage.identities.listOfUser(ctx.user.id) : undefined,
      ]);
      if (customIdentifier) body.custom_identifier = customIdentifier;
      body.custom_fields = profile?.custom_fields ?? {};
      Object.assign(body, extrasView(profile));
      if (consents) body.consents = consents;
      if (identities)
        body.identities = identities.map((i) => ({
          id: i.id,
          provider: i.provider,
          user_id: i.subject,
          created_at: new Date(Number(i.created_at)).toISOString(),
        }));
    }
    // OIDC Core 5.3.2: sub is always in the answer.
    const answer = fields
      ? Object.fromEntries(Object.entries(body).filter(([k]) => k === 'sub' || fields.has(k)))
      : body;
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(answer);
  };
  app.get('/identity/v1/userinfo', { schema: userinfoSchema }, userinfo);
  app.post('/identity/v1/userinfo', { schema: userinfoPostSchema }, userinfo);

  app.post('/identity/v1/update-profile', { schema: updateProfileSchema }, async (req, reply) => {
    const ctx = await verifyBearer(r, resourceRequest(req));
    const params = requireSingle(req.body ?? {}, isJson(req.headers['content-type']));
    str(params, 'redirect_url');
    const change = r.profiles.read(params, {
      writer: 'user',
      prefix: '',
      mode: 'update',
      ignore: ['redirect_url', 'consents'],
      elsewhere: CHANGED_ELSEWHERE,
    });
    const consents = r.consentChanges.read(params.consents, 'consents');
    const actor = actorOf(ctx.user.id, req.ip);
    const pending = await r.storage.transaction(async (tx) => {
      await r.profiles.apply(ctx.user, change, actor, tx);
      return r.consentChanges.store(tx, ctx.user.id, consents, 'end_user', actor);
    });
    r.consentChanges.sendConfirmations(ctx.user, pending, localeOf(req));
    return reply.code(204).send();
  });

  app.post('/identity/v1/unlink', { schema: unlinkSchema }, async (req, reply) => {
    const ctx = await verifyBearer(r, resourceRequest(req));
    const params = requireSingle(req.body ?? {}, isJson(req.headers['content-type']));
    const identityId = str(params, 'identity_id', 64);
    const provider = str(params, 'provider', 40);
    if (identityId === undefined && provider === undefined) throw missingField('identity_id');
    const target = { id: identityId, provider };
    await unlinkIdentity(r, ctx.user.id, target, actorOf(ctx.user.id, req.ip));
    return reply.code(204).send();
  });
}
