// Passkeys: the registration and authentication ceremonies (@simplewebauthn/server does the WebAuthn
// verification), the user's list of passkeys and their removal. Every ceremony's challenge is stored,
// single use and short-lived (challenges.ts); relying party and origins come from the account.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import type { Passkey } from '../storage/sql/passkeys.js';
import type { Repos, Storage } from '../storage/storage.js';
import { type Bound, type Ceremony, createChallengeStore } from './challenges.js';
import { allowedOrigin, relyingParty } from './relying-party.js';

// @simplewebauthn/server (with its ASN.1 and CBOR parsers) is ~4 MB of heap and ~0.3 s to load: loaded
// on the first ceremony, not when the server starts.
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/** ES256, EdDSA, RS256: what authenticators commonly make, strongest first. */
const ALGORITHMS = [-7, -8, -257];

/** The user handle of a Ward user: the bytes of its id (random, no personal data). */
const userHandle = (userId: string) => new TextEncoder().encode(userId);
const fromHandle = (handle: string) => Buffer.from(handle, 'base64url').toString('utf8');

/** What a ceremony carries from its options to its verification. */
export interface CeremonyData {
  origin: string;
  friendlyName: string;
  [k: string]: unknown;
}

export interface PasskeyDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  issuer: string;
}

const notVerified = (e: unknown) =>
  new WardError('passkeyNotVerified', { description: e instanceof Error ? e.message.slice(0, 200) : undefined });

export function createPasskeys(deps: PasskeyDeps) {
  const challenges = createChallengeStore({
    storage: deps.storage,
    clock: deps.clock,
    ttl: () => deps.account().passkeys.challenge_ttl,
  });
  const rp = () => relyingParty(deps.account(), deps.issuer);

  /** An assertion's checks, after `check` of what its challenge was bound to. */
  async function assertion<T extends { origin: string }>(
    ceremony: 'login' | 'second_factor',
    response: AuthenticationResponseJSON,
    check?: (bound: Bound<T>) => void,
  ) {
    const bound = await challenges.consume<T>(ceremony, response.response.clientDataJSON);
    check?.(bound);
    const passkey = await deps.storage.passkeys.findByCredentialId(response.id);
    if (!passkey) throw new WardError('passkeyNotVerified', { description: 'Unknown passkey' });
    if (bound.userId !== null && bound.userId !== passkey.user_id)
      throw new WardError('passkeyNotVerified', { description: 'This passkey is not one of the user named' });
    if (response.response.userHandle && fromHandle(response.response.userHandle) !== passkey.user_id)
      throw new WardError('passkeyNotVerified', { description: 'The user handle is not the passkey’s' });
    const { verifyAuthenticationResponse } = await webauthn();
    let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: bound.challenge,
        expectedOrigin: bound.data.origin,
        expectedRPID: rp().id,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      });
    } catch (e) {
      throw notVerified(e);
    }
    if (!result.verified) throw notVerified(undefined);
    const info = result.authenticationInfo;
    const recorded = await deps.storage.passkeys.recordUse(passkey.id, passkey.counter, {
      counter: info.newCounter,
      backed_up: info.credentialBackedUp,
      now: deps.clock.now(),
    });
    if (!recorded) throw new WardError('passkeyNotVerified', { description: 'The passkey was used meanwhile' });
    return {
      userId: passkey.user_id,
      userVerified: info.userVerified,
      clientId: bound.clientId,
      data: bound.data,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  }

  return {
    /** Refuses when passkeys are off (before anything else is read). */
    ensureEnabled: (): void => void rp(),

    /**
     * Creation options for a new passkey of `user` (signup: a user still to create, under this id),
     * the challenge stored for this ceremony.
     */
    async creationOptions(
      ceremony: Extract<Ceremony, 'signup' | 'register' | 'reset' | 'enrol'>,
      user: { id: string; name: string; displayName: string },
      bound: { clientId: string; origin: unknown; data: Omit<CeremonyData, 'origin'> },
    ) {
      const party = rp();
      const origin = allowedOrigin(party, bound.origin);
      const existing =
        ceremony === 'register' || ceremony === 'enrol' ? await deps.storage.passkeys.listOfUser(user.id) : [];
      const options = await (await webauthn()).generateRegistrationOptions({
        rpName: party.name,
        rpID: party.id,
        userID: userHandle(user.id),
        userName: user.name,
        userDisplayName: user.displayName,
        timeout: deps.account().passkeys.challenge_ttl * 1000,
        attestationType: 'none',
        excludeCredentials: existing.map((k) => ({ id: k.credential_id, transports: k.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await challenges.store(ceremony, options.challenge, {
        userId: user.id,
        clientId: bound.clientId,
        data: { ...bound.data, origin },
      });
      return options;
    },

    /**
     * Verifies a new credential against its stored challenge: the ceremony's origin, the relying party,
     * the user's presence. Answers the passkey to store (not stored yet) and what the challenge carried.
     */
    async verifyCreation<T extends CeremonyData>(
      ceremony: Extract<Ceremony, 'signup' | 'register' | 'reset' | 'enrol'>,
      response: RegistrationResponseJSON,
    ) {
      const bound = await challenges.consume<T>(ceremony, response.response.clientDataJSON);
      const { verifyRegistrationResponse } = await webauthn();
      let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        result = await verifyRegistrationResponse({
          response,
          expectedChallenge: bound.challenge,
          expectedOrigin: bound.data.origin,
          expectedRPID: rp().id,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch (e) {
        throw notVerified(e);
      }
      if (!result.verified) throw notVerified(undefined);
      const info = result.registrationInfo;
      if (await deps.storage.passkeys.findByCredentialId(info.credential.id)) throw new WardError('passkeyInUse');
      const passkey: Passkey = {
        id: randomId(),
        user_id: bound.userId!,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        backed_up: info.credentialBackedUp,
        device_type: info.credentialDeviceType,
        friendly_name: bound.data.friendlyName,
        aaguid: info.aaguid,
        created_at: deps.clock.now(),
        last_used_at: null,
      };
      return { passkey, userVerified: info.userVerified, clientId: bound.clientId, data: bound.data };
    },

    /**
     * Request options: for a user (their passkeys allowed), for an identifier no one has (a sign-in no
     * passkey can finish, answered like any other: no enumeration), or for anyone (discoverable).
     */
    async requestOptions(
      forUser: { userId: string } | { nobody: true } | { anyone: true },
      bound: { clientId: string; origin: unknown; data: Record<string, unknown> },
    ) {
      const party = rp();
      const origin = allowedOrigin(party, bound.origin);
      const keys = 'userId' in forUser ? await deps.storage.passkeys.listOfUser(forUser.userId) : [];
      const options = await (await webauthn()).generateAuthenticationOptions({
        rpID: party.id,
        allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports })),
        userVerification: 'preferred',
        timeout: deps.account().passkeys.challenge_ttl * 1000,
      });
      const userId = 'userId' in forUser ? forUser.userId : 'nobody' in forUser ? '!' : null;
      await challenges.store('login', options.challenge, {
        userId,
        clientId: bound.clientId,
        data: { ...bound.data, origin },
      });
      return { ...options, allowCredentials: options.allowCredentials ?? [] };
    },

    /**
     * Verifies an assertion: its challenge (once), the passkey it names (of the user the options were
     * for, if any), its signature, origin and counter. Records the use (counter, backup state).
     */
    verifyAssertion: <T extends { origin: string }>(response: AuthenticationResponseJSON) =>
      assertion<T>('login', response),

    /**
     * Request options for a registered credential of `userId` to answer a second factor (after a
     * password, or a step-up): the user's credentials allowed, user verification discouraged (the key
     * proves possession; the password or the session already proved the rest), the challenge bound
     * to the step-up token's digest. Refuses a user without a credential.
     */
    async secondFactorOptions(userId: string, bound: { clientId: string; origin: unknown; stepUpDigest: string }) {
      const party = rp();
      const origin = allowedOrigin(party, bound.origin);
      const keys = await deps.storage.passkeys.listOfUser(userId);
      if (keys.length === 0) throw new WardError('noSecondFactor', { description: 'This user has no security key' });
      const options = await (await webauthn()).generateAuthenticationOptions({
        rpID: party.id,
        allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports })),
        userVerification: 'discouraged',
        timeout: deps.account().passkeys.challenge_ttl * 1000,
      });
      await challenges.store('second_factor', options.challenge, {
        userId,
        clientId: bound.clientId,
        data: { origin, stepUp: bound.stepUpDigest },
      });
      return { ...options, allowCredentials: options.allowCredentials ?? [] };
    },

    /**
     * Verifies an assertion that answers the second factor of the step-up `stepUpDigest`: a challenge
     * of secondFactorOptions for that step-up (once), a credential of the user it was made for.
     * Answers whether the key is hardware-bound (RFC 8176 `hwk`: a single-device credential, not
     * backed up) or may be synced (`swk`).
     */
    async verifySecondFactor(response: AuthenticationResponseJSON, stepUpDigest: string) {
      const v = await assertion<{ origin: string; stepUp: string }>('second_factor', response, (b) => {
        if (b.data.stepUp !== stepUpDigest) throw new WardError('passkeyChallenge');
      });
      return { userId: v.userId, hardware: v.deviceType === 'singleDevice' && !v.backedUp };
    },

    /**
     * The amr of a passkey sign-in (RFC 8176): `webauthn`, and `mfa` when the authenticator verified
     * the user (something held and something known or are) unless the account says otherwise.
     */
    amr(userVerified: boolean): string[] {
      return userVerified && deps.account().passkeys.user_verification_is_mfa ? ['webauthn', 'mfa'] : ['webauthn'];
    },

    list: (userId: string): Promise<Passkey[]> => deps.storage.passkeys.listOfUser(userId),

    /** Removes a passkey of the user, unless it is their last way to sign in (no password, no provider). */
    /** Removes a passkey, never the last way in; `within` writes what goes with it (its webhook event). */
    async remove(
      user: { id: string; password_hash: string | null },
      id: string,
      within?: (tx: Repos) => Promise<void>,
    ): Promise<void> {
      await deps.storage.transaction(async (tx) => {
        await tx.passkeys.lockUser(user.id);
        const keys = await tx.passkeys.listOfUser(user.id);
        if (!keys.some((k) => k.id === id)) throw new WardError('notFound', { description: 'No such passkey' });
        const others = keys.length > 1 || !!user.password_hash || (await tx.identities.listOfUser(user.id)).length > 0;
        if (!others) throw new WardError('lastSignInMethod');
        await tx.passkeys.delete(user.id, id);
        // The recovery codes go with the last strong factor (strong-factors.ts removeTotp): the last key
        // registered as a second factor, when there is no authenticator app.
        const removed = keys.find((k) => k.id === id)!;
        if (removed.second_factor && !keys.some((k) => k.id !== id && k.second_factor)) {
          const app = (await tx.mfaCredentials.listOfUser(user.id)).some((c) => c.type === 'totp' && c.verified_at);
          if (!app) await tx.recoveryCodes.deleteAllOfUser(user.id);
        }
        await within?.(tx);
      });
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
