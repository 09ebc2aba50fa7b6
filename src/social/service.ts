// Social login (issue 6): /oauth/authorize?provider=<name> sends the user to the provider with a
// state, a nonce and PKCE kept server-side (a one-time record keyed by the state's digest); the
// callback checks all three, gets the profile, then finds the user: a linked identity; or, when a
// verified email matches an existing account, a link that waits until that account proves itself
// (its password), never a silent link (account takeover); or a new user, once it has what the account
// requires (else a signup token for the profile's completion: signup-completion.ts).
import { createHash } from 'node:crypto';
import { normalizeEmail } from '../accounts/identifiers.js';
import { postedNames } from './posted-user.js';
import { createSignupCompletion } from './signup-completion.js';
import { UpstreamError, type UpstreamProfile } from './upstream.js';
import { randomId, randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { User } from '../storage/sql/users.js';
import { LITE_PROFILE } from '../accounts/lite-profiles.js';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { SocialProviders } from './providers.js';
import type { Repos, Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SocialDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  socialProviders: SocialProviders;
  storage: Storage;
  users: UserService;
}

const STATE_TTL = 10 * 60_000;
const LINK_TTL = 10 * 60_000;
/** A posted answer waits this long for its browser to come back (one redirect). */
const PARK_TTL = 2 * 60_000;
const POSTED_FIELDS = ['state', 'code', 'error', 'user'] as const;

/** Each outcome names the stored interaction the social login continues (its digest). */
export type CallbackOutcome =
  | { kind: 'user'; user: User; interaction: string; provider: string }
  | { kind: 'link'; linkToken: string; email: string; interaction: string; provider: string }
  /** A new identity that lacks what the account requires: the profile is completed first. */
  | { kind: 'complete'; signupToken: string; interaction: string; provider: string }
  | {
      kind: 'refused';
      interaction: string;
      error: 'access_denied' | 'server_error';
      description: string;
      /** For the audit: why, when it is not the error itself, and the user refused. */
      reason?: string;
      userId?: string;
    }
  | { kind: 'bad_state' };

export function createSocialService(r: SocialDeps) {
  const upstream = (name: string) => r.socialProviders.get(name);
  const signup = createSignupCompletion(r);

  async function link(
    userId: string,
    provider: string,
    subject: string,
    email: string | undefined | null,
    /** In the caller's transaction: a unique violation is the caller's to handle. */
    tx?: Pick<Repos, 'identities'>,
  ): Promise<void> {
    const row = { id: randomId(), user_id: userId, provider, subject, email: email ?? null, created_at: r.clock.now() };
    if (tx) return tx.identities.insert(row);
    try {
      await r.storage.identities.insert(row);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // linked meanwhile by a parallel callback: the same link
    }
  }

  async function userFor(
    provider: string,
    profile: UpstreamProfile,
    interaction: string,
    clientId: string,
  ): Promise<CallbackOutcome> {
    // A lite profile signs in with nothing, a social identity it holds or its email's match included.
    const lite = (user: User): CallbackOutcome | undefined =>
      user.lite
        ? {
            kind: 'refused',
            interaction,
            error: 'access_denied',
            description: 'This account cannot sign in',
            reason: LITE_PROFILE,
            userId: user.id,
          }
        : undefined;
    const linked = await r.storage.identities.find(provider, profile.sub);
    if (linked) {
      const user = await r.users.find(linked.user_id);
      if (!user || user.disabled)
        return { kind: 'refused', interaction, error: 'access_denied', description: 'This account is disabled' };
      return lite(user) ?? { kind: 'user', user, interaction, provider };
    }
    const verifiedEmail = profile.email_verified ? normalizeEmail(profile.email) : null;
    const existing = verifiedEmail ? await r.storage.users.findByEmail(verifiedEmail) : undefined;
    const refused = existing && lite(existing);
    if (refused) return refused;
    if (existing) {
      const linkToken = randomToken(32);
      const now = r.clock.now();
      await r.storage.oneTime.insert({
        digest: sha256(linkToken),
        kind: 'social_link',
        user_id: existing.id,
        client_id: provider,
        payload: JSON.stringify({ provider, subject: profile.sub, email: existing.email, interaction }),
        expires_at: now + LINK_TTL,
        consumed_at: null,
        created_at: now,
      });
      return { kind: 'link', linkToken, email: existing.email!, interaction, provider };
    }
    const missing = signup.missingFor(profile);
    if (missing.length) {
      const signupToken = await signup.issue(provider, profile, { interaction, clientId }, missing);
      return { kind: 'complete', signupToken, interaction, provider };
    }
    // The event is written with the user, in its transaction.
    let created: StagedEvent | undefined;
    const user = await r.users.createFederated(profile, provider, async (tx, u) => {
      created = await r.events.stage(tx, 'social.user_created', { provider, user_id: u.id });
    });
    await link(user.id, provider, profile.sub, profile.email);
    if (created) r.events.emitStaged(created, 'user created by social login');
    return { kind: 'user', user, interaction, provider };
  }

  return {
    /** The profile completion of a new identity that lacked what the account requires. */
    signup,
    providers: () => r.socialProviders.list().map((p) => ({ name: p.name, label: p.label })),
    has: (name: unknown): name is string => typeof name === 'string' && upstream(name) !== undefined,

    /** The provider's authorization URL for a stored interaction (named by its digest). */
    async begin(provider: string, clientId: string, interaction: string, browser: string): Promise<string> {
      const up = upstream(provider)!;
      const state = randomToken(32);
      const nonce = randomToken(32);
      const verifier = randomToken(48);
      const now = r.clock.now();
      await r.storage.oneTime.insert({
        digest: sha256(state),
        kind: 'social_state',
        user_id: '-',
        client_id: clientId,
        payload: JSON.stringify({ provider, nonce, verifier, interaction, browser: sha256(browser) }),
        expires_at: now + STATE_TTL,
        consumed_at: null,
        created_at: now,
      });
      return up
        .authorizationUrl(state, nonce, createHash('sha256').update(verifier).digest('base64url'))
        .catch(async (e: unknown) => {
          // A discovery that failed or was refused (issuer-rule.ts, lib/outbound/): the operator hears why.
          if (e instanceof UpstreamError)
            await r.events.emit(
              'social.failed',
              { provider, reason: e.message, ...(e.detail ? { detail: e.detail } : {}) },
              'social login failed',
              'warn',
            );
          throw e;
        });
    },

    /**
     * A provider's posted answer (`form_post`), kept under a one-time handle until the browser that
     * started comes back with it (the route's same-site GET); only for a live state of this provider,
     * which the state is not consumed by: the callback checks it as for any answer.
     */
    async park(provider: string, form: Record<string, unknown>): Promise<string | null> {
      const state = typeof form.state === 'string' && form.state.length <= 100 ? form.state : null;
      if (!state || !upstream(provider)) return null;
      const row = await r.storage.oneTime.find('social_state', sha256(state));
      const now = r.clock.now();
      if (!row || row.consumed_at !== null || row.expires_at <= now) return null;
      if ((JSON.parse(row.payload) as { provider: string }).provider !== provider) return null;
      const answer: Record<string, string> = {};
      for (const k of POSTED_FIELDS) {
        const v = form[k];
        if (typeof v === 'string' && v.length <= 4096) answer[k] = v;
      }
      const handle = randomToken(32);
      await r.storage.oneTime.insert({
        digest: sha256(handle),
        kind: 'social_post',
        user_id: '-',
        client_id: provider,
        payload: JSON.stringify(answer),
        expires_at: now + PARK_TTL,
        consumed_at: null,
        created_at: now,
      });
      return handle;
    },

    /** The parked answer, once, for the provider it was posted to. */
    async unpark(provider: string, handle: unknown): Promise<Record<string, string> | null> {
      if (typeof handle !== 'string' || handle.length > 100) return null;
      const consumed = await r.storage.oneTime.consume('social_post', sha256(handle), r.clock.now());
      if (consumed.state !== 'ok' || consumed.row.expires_at <= r.clock.now() || consumed.row.client_id !== provider)
        return null;
      return JSON.parse(consumed.row.payload) as Record<string, string>;
    },

    /** The provider's answer: state, nonce and PKCE checked, then the user found, linked or created. */
    async callback(
      provider: string,
      query: Record<string, unknown>,
      browser: string | undefined,
    ): Promise<CallbackOutcome> {
      const state = typeof query.state === 'string' && query.state.length <= 100 ? query.state : null;
      if (!state) return { kind: 'bad_state' };
      const consumed = await r.storage.oneTime.consume('social_state', sha256(state), r.clock.now());
      if (consumed.state !== 'ok' || consumed.row.expires_at <= r.clock.now()) return { kind: 'bad_state' };
      const saved = JSON.parse(consumed.row.payload) as {
        provider: string;
        nonce: string;
        verifier: string;
        interaction: string;
        browser: string;
      };
      // The answer must come back to the browser that started (login CSRF on the callback).
      if (saved.provider !== provider || !upstream(provider) || !browser || sha256(browser) !== saved.browser)
        return { kind: 'bad_state' };
      if (query.error !== undefined) {
        return {
          kind: 'refused',
          interaction: saved.interaction,
          error: 'access_denied',
          description: `The identity provider answered ${String(query.error)
            .slice(0, 40)
            .replace(/[^\x20-\x7e]/g, '')}`,
        };
      }
      if (typeof query.code !== 'string' || query.code.length > 2048)
        return {
          kind: 'refused',
          interaction: saved.interaction,
          error: 'access_denied',
          description: 'The identity provider sent no code',
        };
      try {
        const up = upstream(provider)!;
        const posted = up.provider.response_mode === 'form_post' ? postedNames(query.user) : {};
        const profile = await up.profile(query.code, saved.verifier, saved.nonce, posted);
        return await userFor(provider, profile, saved.interaction, consumed.row.client_id);
      } catch (e) {
        if (!(e instanceof UpstreamError)) throw e;
        await r.events.emit(
          'social.failed',
          { provider, reason: e.message, ...(e.detail ? { detail: e.detail } : {}) },
          'social login failed',
          'warn',
        );
        return { kind: 'refused', interaction: saved.interaction, error: e.oauthError, description: e.message };
      }
    },

    /**
     * An id_token the browser got from the provider itself (Google One Tap, the Core SDK's
     * loginWithIdToken): checked as a code's id_token, its nonce the SHA-256 (base64url) of the one the
     * SDK sends beside it, and used once (a copied token is refused); then the user is found, linked or
     * created as for any social login.
     */
    async idTokenSignIn(
      provider: string,
      idToken: unknown,
      nonce: unknown,
      interaction: string,
      clientId: string,
    ): Promise<CallbackOutcome> {
      const refused = (description: string): CallbackOutcome => ({
        kind: 'refused',
        interaction,
        error: 'access_denied',
        description,
      });
      if (typeof idToken !== 'string' || idToken.length > 8192) return refused('The id_token is missing or too long');
      if (nonce !== undefined && (typeof nonce !== 'string' || nonce.length > 512))
        return refused('The nonce is malformed');
      const expected = nonce ? createHash('sha256').update(nonce).digest('base64url') : null;
      try {
        const { profile, expiresAt } = await upstream(provider)!.fromIdToken(idToken, expected);
        const now = r.clock.now();
        const first = await r.storage.oneTime.claim({
          digest: sha256(idToken),
          kind: 'id_token_used',
          user_id: '-',
          client_id: provider,
          payload: '{}',
          expires_at: expiresAt,
          consumed_at: now,
          created_at: now,
        });
        if (!first) throw new UpstreamError('access_denied', "The provider's id_token was already used");
        return await userFor(provider, profile, interaction, clientId);
      } catch (e) {
        if (!(e instanceof UpstreamError)) throw e;
        await r.events.emit(
          'social.failed',
          { provider, reason: e.message, one_tap: true },
          'social login failed',
          'warn',
        );
        return refused(e.message);
      }
    },

    /** A link still waiting for its password: what the page shows. */
    async pendingLink(linkToken: unknown): Promise<{ email: string; provider: string; interaction: string } | null> {
      if (typeof linkToken !== 'string' || linkToken.length > 100) return null;
      const row = await r.storage.oneTime.find('social_link', sha256(linkToken));
      if (!row || row.consumed_at !== null || row.expires_at <= r.clock.now()) return null;
      const saved = JSON.parse(row.payload) as { provider: string; email: string; interaction: string };
      return { email: saved.email, provider: saved.provider, interaction: saved.interaction };
    },

    /** The existing account proved itself (its password): link the identity, once. */
    async confirmLink(
      linkToken: unknown,
      password: unknown,
    ): Promise<{ user: User; provider: string; interaction: string } | null> {
      if (typeof linkToken !== 'string' || linkToken.length > 100) return null;
      const row = await r.storage.oneTime.find('social_link', sha256(linkToken));
      if (!row || row.consumed_at !== null || row.expires_at <= r.clock.now()) return null;
      const saved = JSON.parse(row.payload) as {
        provider: string;
        subject: string;
        email: string;
        interaction: string;
      };
      const user = await r.users.authenticate({ email: saved.email }, password);
      if (!user || user.id !== row.user_id) return null;
      // The token used up, the identity and its webhook event in one transaction.
      const fields = { provider: saved.provider, user_id: user.id };
      let linked: StagedEvent | null;
      try {
        linked = await r.storage.transaction(async (tx) => {
          if ((await tx.oneTime.consume('social_link', row.digest, r.clock.now())).state !== 'ok') return null;
          await link(user.id, saved.provider, saved.subject, saved.email, tx);
          return r.events.stage(tx, 'social.linked', fields);
        });
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        // Linked meanwhile by a parallel callback (its own event): the token is used up all the same.
        if ((await r.storage.oneTime.consume('social_link', row.digest, r.clock.now())).state !== 'ok') return null;
        return { user, provider: saved.provider, interaction: saved.interaction };
      }
      if (!linked) return null;
      r.events.emitStaged(linked, 'identity linked after the account proved itself');
      return { user, provider: saved.provider, interaction: saved.interaction };
    },
  };
}

export type SocialService = ReturnType<typeof createSocialService>;
