// A first social sign-in that lacks what the account requires (a verified email when the account's
// `social_signup.email_required` says so, any required custom field) creates no user. Ward keeps what
// the provider gave under a signup token (single use, stored as its SHA-256, 10 minutes, for the
// client of the sign-in and its stored interaction, which binds it to the browser that started), and
// the user completes the profile: on Ward's page or the app's own (the Core SDK's getSignupData reads
// the claims). The completion is validated by the one profile validator (and the account's consents,
// a required one to be granted), then the user, its identity, its consents and the spent token are
// written in one transaction.
import { normalizeEmail } from '../accounts/identifiers.js';
import { readProfile } from '../accounts/profile.js';
import { readConsents, requireConsents, type ConsentInput } from '../accounts/user-consents.js';
import { WardError, type FieldError } from '../errors/ward-error.js';
import { randomId, randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { User } from '../storage/sql/users.js';
import type { UpstreamProfile } from './upstream.js';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SignupCompletionDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  storage: Storage;
  users: UserService;
}

const KIND = 'signup_token';
const PARKED = 'signup_post';
const TOKEN_TTL = 10 * 60_000;
/** A completion posted by the app's page waits this long for its browser to come back (one redirect). */
const PARK_TTL = 2 * 60_000;
/** What the completion takes elsewhere: the identifiers and the password have their own verified endpoints. */
const ELSEWHERE = {
  phone_number: 'is not set here: add it later with update-phone-number (it is verified)',
  password: 'is not set here: the account signs in with its provider (add a password later)',
};

/** What the provider said of the user, as kept with the token. */
export interface ProviderClaims {
  email?: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface PendingSignup {
  /** The id the user will have: the `sub` getSignupData answers. */
  userId: string;
  clientId: string;
  provider: string;
  subject: string;
  claims: ProviderClaims;
  /** The stored interaction the sign-in continues (its digest). */
  interaction: string;
  /** What the account requires and the provider did not give: `email`, `custom_fields.<name>`, `consents.<key>`. */
  missing: string[];
}

interface Saved {
  provider: string;
  subject: string;
  claims: ProviderClaims;
  interaction: string;
  missing: string[];
}

/** Thrown inside the transaction when the token was spent meanwhile: nothing is written. */
class Spent extends Error {}

const validToken = (t: unknown): t is string => typeof t === 'string' && t.length > 0 && t.length <= 100;

/** The OpenID claims of a pending signup (getSignupData's answer). */
export function signupClaims(p: PendingSignup): Record<string, unknown> {
  const { given_name, family_name, email, email_verified } = p.claims;
  const name = [given_name, family_name].filter(Boolean).join(' ');
  return {
    sub: p.userId,
    ...(given_name ? { given_name } : {}),
    ...(family_name ? { family_name } : {}),
    ...(name ? { name } : {}),
    ...(email ? { email, email_verified } : {}),
  };
}

export function createSignupCompletion(r: SignupCompletionDeps) {
  async function live(token: unknown): Promise<PendingSignup | null> {
    if (!validToken(token)) return null;
    const row = await r.storage.oneTime.find(KIND, sha256(token));
    if (!row || row.consumed_at !== null || row.expires_at <= r.clock.now()) return null;
    const saved = JSON.parse(row.payload) as Saved;
    return { userId: row.user_id, clientId: row.client_id, ...saved };
  }

  /** The email the user will have, or the problem with the one posted. */
  function emailOf(
    p: PendingSignup,
    posted: unknown,
    errors: FieldError[],
  ): { email: string | null; verified: boolean } {
    const fromProvider = p.claims.email_verified ? normalizeEmail(p.claims.email) : null;
    if (posted !== undefined) {
      const email = normalizeEmail(posted);
      if (email) return { email, verified: email === fromProvider };
      errors.push({ field: 'email', message: 'must be a valid email address', code: 'invalid' });
      return { email: null, verified: false };
    }
    if (!fromProvider && r.account().social_signup.email_required)
      errors.push({ field: 'email', message: 'email is required', code: 'missing' });
    return { email: fromProvider, verified: !!fromProvider };
  }

  /** The consents given (each known and active, every required one granted), or their problems. */
  function consentsOf(raw: unknown, errors: FieldError[]): ConsentInput[] {
    const definitions = r.account().consents;
    try {
      const given = readConsents(raw, definitions, 'consents');
      requireConsents(given, definitions, 'consents');
      return given;
    } catch (e) {
      if (!(e instanceof WardError) || !e.details?.length) throw e;
      // Each problem on its consent's box (`consents.<key>`, not `consents.<key>.granted`).
      errors.push(...e.details.map((d) => ({ ...d, field: d.field.split('.').slice(0, 2).join('.') })));
      return [];
    }
  }

  return {
    /** What a new identity lacks of what the account requires (empty: the user is created at once). */
    missingFor(profile: UpstreamProfile): string[] {
      const account = r.account();
      const verifiedEmail = profile.email_verified && normalizeEmail(profile.email);
      return [
        ...(account.social_signup.email_required && !verifiedEmail ? ['email'] : []),
        ...account.custom_fields.filter((f) => f.required).map((f) => `custom_fields.${f.name}`),
        ...account.consents.filter((d) => d.required && d.status === 'active').map((d) => `consents.${d.key}`),
      ];
    },

    /** Keeps what the provider gave for the completion; answers the token (given once, stored hashed). */
    async issue(
      provider: string,
      profile: UpstreamProfile,
      bound: { interaction: string; clientId: string },
      missing: string[],
    ): Promise<string> {
      const token = randomToken(32);
      const now = r.clock.now();
      const claims: ProviderClaims = {
        ...(profile.email ? { email: profile.email.slice(0, 320) } : {}),
        email_verified: profile.email_verified,
        ...(profile.given_name ? { given_name: profile.given_name.slice(0, 200) } : {}),
        ...(profile.family_name ? { family_name: profile.family_name.slice(0, 200) } : {}),
      };
      const saved: Saved = { provider, subject: profile.sub, claims, interaction: bound.interaction, missing };
      await r.storage.oneTime.insert({
        digest: sha256(token),
        kind: KIND,
        user_id: randomId(),
        client_id: bound.clientId,
        payload: JSON.stringify(saved),
        expires_at: now + TOKEN_TTL,
        consumed_at: null,
        created_at: now,
      });
      await r.events.emit(
        'social.profile_incomplete',
        { provider, client_id: bound.clientId, missing },
        'social sign-in waits for the profile to be completed',
      );
      return token;
    },

    /** A live, unused token (of this client when one is named); reading it spends nothing. */
    async pending(token: unknown, clientId?: string): Promise<PendingSignup | null> {
      const p = await live(token);
      return p && (clientId === undefined || p.clientId === clientId) ? p : null;
    },

    /**
     * Validates the completion (the profile validator: every problem at once, `profileInvalid`; an
     * email of another account: `emailInUse`), then creates the user under its announced id with its
     * identity, and spends the token, in one transaction. Null when the token is no longer live.
     */
    async complete(
      token: unknown,
      input: Record<string, unknown>,
    ): Promise<{ user: User; pending: PendingSignup; emailToVerify: boolean } | null> {
      const p = await live(token);
      if (!p) return null;
      const errors: FieldError[] = [];
      const { email, verified } = emailOf(p, input.email, errors);
      const consents = consentsOf(input.consents, errors);
      const change = readProfile(input, {
        customFields: r.account().custom_fields,
        writer: 'user',
        prefix: '',
        mode: 'create',
        ignore: ['email', 'consents'],
        elsewhere: ELSEWHERE,
        errors,
      });
      const profile = {
        email,
        email_verified: verified,
        phone_number: null,
        given_name: change.names.given_name !== undefined ? change.names.given_name : (p.claims.given_name ?? null),
        family_name: change.names.family_name !== undefined ? change.names.family_name : (p.claims.family_name ?? null),
        extra: change,
        // Written with the user, reporter end_user (the user answered them on the completion page).
        consents,
      };
      let user: User;
      let created: StagedEvent | undefined;
      try {
        user = await r.users.createPasswordless(
          p.userId,
          profile,
          async (tx, newUser) => {
            const spent = await tx.oneTime.consume(KIND, sha256(token as string), r.clock.now());
            if (spent.state !== 'ok') throw new Spent();
            await tx.identities.insert({
              id: randomId(),
              user_id: newUser.id,
              provider: p.provider,
              subject: p.subject,
              email: p.claims.email ?? null,
              created_at: r.clock.now(),
            });
            // The event is written with the user, in its transaction.
            created = await r.events.stage(tx, 'social.user_created', {
              provider: p.provider,
              user_id: newUser.id,
              client_id: p.clientId,
              completed: true,
            });
          },
          { method: 'social', provider: p.provider },
        );
      } catch (e) {
        // Spent by a parallel post (its user has the announced id: the conflict is that one), or the
        // identity linked meanwhile by another completion.
        if (e instanceof Spent || isUniqueViolation(e)) return null;
        if (e instanceof WardError && e.status === 409 && !(await live(token))) return null;
        throw e;
      }
      if (created) r.events.emitStaged(created, 'user created by social login once the profile was completed');
      return { user, pending: p, emailToVerify: !!user.email && !user.email_verified };
    },

    /**
     * A completion the app's page posted cross-site (no SameSite=Lax cookie with it), kept under a
     * one-time handle until the browser comes back by GET; only for a live token.
     */
    async park(token: unknown, form: Record<string, unknown>): Promise<string | null> {
      const entries = Object.entries(form);
      const fit = ([k, v]: [string, unknown]) => typeof v === 'string' && k.length <= 100 && v.length <= 4096;
      if (entries.length > 120 || !entries.every(fit) || !(await live(token))) return null;
      const fields = Object.fromEntries(entries) as Record<string, string>;
      const handle = randomToken(32);
      const now = r.clock.now();
      await r.storage.oneTime.insert({
        digest: sha256(handle),
        kind: PARKED,
        user_id: '-',
        client_id: '-',
        payload: JSON.stringify(fields),
        expires_at: now + PARK_TTL,
        consumed_at: null,
        created_at: now,
      });
      return handle;
    },

    /** The parked completion, once. */
    async unpark(handle: unknown): Promise<Record<string, string> | null> {
      if (!validToken(handle)) return null;
      const now = r.clock.now();
      const consumed = await r.storage.oneTime.consume(PARKED, sha256(handle), now);
      if (consumed.state !== 'ok' || consumed.row.expires_at <= now) return null;
      return JSON.parse(consumed.row.payload) as Record<string, string>;
    },
  };
}

export type SignupCompletion = ReturnType<typeof createSignupCompletion>;
