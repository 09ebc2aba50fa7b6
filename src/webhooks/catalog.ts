// The catalog of webhook events: each type with its JSON schema (TypeBox), the audit actions it is
// derived from, and the envelope every delivery carries. An event is never made up beside the audit
// log: the audit row of a change (audit/record.ts, inside the change's transaction) or of a security
// event (audit/events.ts) is what becomes the webhook event, so both always tell the same story.
// `data` holds ids and what changed, picked field by field from the audit row: never a secret.
import { type TObject, type TSchema, Type } from 'typebox';
import { userViewSchema } from '../accounts/user-view.js';

/** What an event is about, which says where its `user_id` may come from. */
type Subject = 'user' | 'client' | 'key' | 'none';

interface EventType {
  description: string;
  subject: Subject;
  /** The audit actions (audit_events.action) that produce this event type. */
  from: readonly string[];
  /** The audit details copied into `data`, with their schema. */
  details: Record<string, TSchema>;
  /** Whether `data.user` carries the user's management view (read in the event's transaction). */
  profile: boolean;
}

const str = (description: string) => Type.Optional(Type.String({ description }));
const method = str('How: the sign-in method, or the path that created the account.');
const factor = { type: str('The kind of factor: email, sms, totp, ...') };

const def = (subject: Subject, description: string, from: string[], details: Record<string, TSchema> = {}) =>
  ({ subject, description, from, details, profile: false }) satisfies EventType;
/** A user.* event whose `data.user` carries the user's management view. */
const withProfile = (description: string, from: string[], details: Record<string, TSchema> = {}) =>
  ({ ...def('user', description, from, details), profile: true }) satisfies EventType;

export const EVENT_TYPES = {
  'user.created': withProfile(
    'An account was created: by the management API, a signup (hosted page or API), social login, a passkey or a first passwordless sign-in.',
    ['user.created', 'account.signup', 'social.user_created', 'passkey.signup'],
    { method, provider: str('The social provider, for an account created by social login.') },
  ),
  'user.updated': withProfile(
    "An account's profile, role, verification flags, addresses or disabled flag changed.",
    [
      'user.updated',
      'user.profile_updated',
      'user.role_changed',
      'user.verification_changed',
      'account.email_changed',
      'account.phone_changed',
    ],
    {
      fields: Type.Optional(Type.Array(Type.String(), { description: 'The profile fields that changed.' })),
      role: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The new console role.' })),
      disabled: Type.Optional(Type.Boolean({ description: 'Whether the account is now disabled.' })),
    },
  ),
  'user.deleted': def('user', 'An account was deleted.', ['user.deleted']),
  'user.consents_changed': def(
    'user',
    "A user's consents to the account's consent definitions changed (signup, update-profile, the management API, a double opt-in link).",
    ['user.consents_changed'],
    {
      keys: Type.Optional(Type.Array(Type.String(), { description: 'The consent definitions whose state changed.' })),
      reporter: str('Who reported the change: end_user, managed (an administrator) or import.'),
    },
  ),
  'user.email_verified': withProfile('A user confirmed their email address.', ['account.email_verified']),
  'user.password_changed': withProfile('A user changed their password.', ['account.password_changed']),
  'user.password_reset': withProfile('A user set a new password through a reset code or link.', [
    'account.password_reset',
  ]),
  'user.locked': withProfile('Password sign-in was locked after failed attempts.', ['login.locked'], {
    until: str('When the lockout ends (ISO 8601).'),
  }),
  'user.unlocked': withProfile('An operator lifted a lockout.', ['user.unlocked']),
  'login.succeeded': def('user', 'A first factor proved the user and nothing more was owed.', ['login.succeeded'], {
    method,
    amr: Type.Optional(Type.Array(Type.String(), { description: 'Authentication methods (RFC 8176).' })),
  }),
  'login.failed': def('user', 'A sign-in was refused; user_id when the account is known.', ['login.failed'], {
    method,
    reason: str('Why, as a short fixed word (wrong_password, locked, ...).'),
  }),
  logout: def('user', 'A user signed out: their SSO session ended (Core SDK or OpenID Connect logout).', ['logout']),
  'session.revoked': def('user', "A user's sessions were ended by an operator or by the user elsewhere.", [
    'user.sessions_revoked',
    'sessions.others_ended',
  ]),
  'mfa.factor_added': def('user', 'A second factor was verified and added.', ['mfa.credential_added'], factor),
  'mfa.factor_removed': def(
    'user',
    'A second factor was removed.',
    ['mfa.credential_removed', 'user.factor_removed'],
    factor,
  ),
  'passkey.added': def('user', 'A passkey was registered.', ['passkey.added']),
  'passkey.removed': def('user', 'A passkey was removed.', ['passkey.removed', 'user.passkey_removed']),
  'identity.linked': def('user', 'A social identity was linked to an account.', ['social.linked'], {
    provider: str('The social provider.'),
  }),
  'identity.unlinked': def('user', 'A social identity was unlinked from an account.', ['user.identity_unlinked'], {
    provider: str('The social provider.'),
  }),
  'client.created': def('client', 'A client was created.', ['client.created'], {
    scope: str('Its scopes.'),
  }),
  'client.updated': def(
    'client',
    'A client was changed or given a new secret (never shown).',
    ['client.updated', 'client.secret_regenerated'],
    {
      fields: Type.Optional(Type.Array(Type.String(), { description: 'The fields the change named.' })),
    },
  ),
  'client.deleted': def('client', 'A client was deleted.', ['client.deleted']),
  'key.rotated': def(
    'key',
    'A signing key was rotated (the site set, or a client set when client_id is given).',
    ['key.rotated'],
    { kid: str('The new key id.') },
  ),
  'key.revoked': def('key', 'A signing key was revoked.', ['key.revoked'], {
    kid: str('The revoked key id.'),
    replaced_by: str('The key id now signing, if one replaced it.'),
  }),
  'users.imported': def(
    'none',
    'A bulk import of users ended (POST /api/v1/users/import, or an import job): its counts. The users it created or changed get no event each.',
    ['users.imported'],
    {
      job: str('The import job, when it ran as one.'),
      lines: Type.Optional(Type.Integer({ description: 'Lines read (an import job).' })),
      created: Type.Optional(Type.Integer({ description: 'Users created.' })),
      updated: Type.Optional(Type.Integer({ description: 'Users changed (upsert).' })),
      skipped: Type.Optional(Type.Integer({ description: 'Lines that named a user already there (create mode).' })),
      refused: Type.Optional(Type.Integer({ description: 'Lines refused.' })),
      weak_hashes: Type.Optional(Type.Integer({ description: 'Users imported with a weak password hash.' })),
      error: str('Why the import stopped early, as a short code.'),
    },
  ),
  'webhook.test': def('none', 'A test event an operator sent to one endpoint (POST /api/v1/webhooks/{id}/test).', [], {
    endpoint_id: Type.String({ description: 'The endpoint it was sent to.' }),
  }),
} as const;

export type WebhookEventType = keyof typeof EVENT_TYPES;
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_TYPES) as WebhookEventType[];
export const isEventType = (t: string): t is WebhookEventType => Object.hasOwn(EVENT_TYPES, t);

/** The JSON schema of one type's `data`. */
export function dataSchema(type: WebhookEventType): TObject {
  const t: EventType = EVENT_TYPES[type];
  return Type.Object(
    {
      ...(t.subject === 'user' ? { user_id: str('The user, when there is one.') } : {}),
      ...(t.subject === 'none'
        ? {}
        : {
            client_id: str(
              t.subject === 'key' ? "The client whose own key set changed; absent: the site's set." : 'The client.',
            ),
          }),
      ...(t.profile ? { user: Type.Optional(userViewSchema) } : {}),
      ...t.details,
    },
    { additionalProperties: false, description: t.description },
  );
}

/** The JSON schema of a delivered event of one type: the envelope around its data. */
export function envelopeSchema(type: WebhookEventType): TObject {
  return Type.Object(
    {
      id: Type.String({ description: 'The event id, also the webhook-id header: the same on every retry.' }),
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When it happened.' }),
      data: dataSchema(type),
    },
    { additionalProperties: false },
  );
}

/** The audit action -> event type table, made once from the catalog. */
export const TYPE_OF_ACTION: ReadonlyMap<string, WebhookEventType> = new Map(
  WEBHOOK_EVENT_TYPES.flatMap((type) => EVENT_TYPES[type].from.map((action) => [action, type] as const)),
);

/** The subject kind of a type (outbox.ts reads the user from the actor only for user events). */
export const subjectOf = (type: WebhookEventType): Subject => EVENT_TYPES[type].subject;
/** Whether a type's `data.user` carries the user's management view. */
export const carriesProfile = (type: WebhookEventType): boolean => EVENT_TYPES[type].profile;
/** The detail fields a type copies from its audit row. */
export const detailFieldsOf = (type: WebhookEventType): string[] => Object.keys(EVENT_TYPES[type].details);
