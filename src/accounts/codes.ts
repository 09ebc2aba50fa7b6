// Account codes: what Ward sends to an address to prove it is the user's (email or phone verification,
// password reset, a change of email or phone). One message carries a short code the user types and,
// by email, a long link token; both are stored only hashed (the code as an HMAC bound to its row, the
// link as SHA-256), bound to a purpose, a user and the address, and short-lived (settings
// self_service.code_ttl and link_ttl). A new message of the same purpose kills the previous one; every
// attempt at a code is counted atomically before the compare, so past max_attempts even the right code
// is refused; a row is used once. Messages are limited per address and purpose, whether an account
// exists or not (the limit tells nothing about accounts).
import type { SecurityEvents } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { rateLimited } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import { randomDigits, randomToken } from '../lib/random.js';
import { hmac, safeEqual, sha256 } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';
import type { AccountCodeRow } from '../storage/sql/account-codes.js';

export type AccountCodePurpose =
  | 'verify_email'
  | 'verify_phone'
  | 'reset_password'
  | 'change_email'
  | 'change_phone'
  | 'passwordless'
  | 'account_recovery'
  | 'delete_account'
  | 'claim_profile';
export type AddressChannel = 'email' | 'sms';

export interface IssueInput {
  purpose: AccountCodePurpose;
  /** Null only for a passwordless sign-in that may create the account. */
  userId: string | null;
  channel: AddressChannel;
  destination: string;
  clientId?: string | null;
  /** The flow's own values, kept with the row (where to return after; never a secret). */
  data?: Record<string, string>;
}

export interface Issued {
  id: string;
  code: string;
  /** The link token (email only); the caller builds the URL around it. */
  link: string | null;
  codeTtl: number;
  linkTtl: number;
}

/** A checked row, its data parsed. */
export type CheckedCode = AccountCodeRow & { values: Record<string, string> };

const CODE_SHAPE = /^[0-9]{4,10}$/;
const LINK_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

export function createAccountCodes(deps: {
  storage: Storage;
  masterKey: Buffer;
  clock: Clock;
  account: () => AccountSettings;
  events: SecurityEvents;
}) {
  const { storage, clock } = deps;
  const codeMac = (id: string, code: string) => hmac(deps.masterKey, `account-code:${id}:${code}`);
  const invalid = () => new WardError('invalidVerificationCode');
  const withValues = (row: AccountCodeRow): CheckedCode => ({ ...row, values: JSON.parse(row.data) });

  const api = {
    /**
     * Counts one message against its address's limit (before anything is looked up or sent), for an
     * address with or without an account. Over the limit: 429 with Retry-After.
     */
    async admit(purpose: AccountCodePurpose, destination: string): Promise<void> {
      const { limit, window_seconds } = deps.account().self_service.requests_per_address;
      if (limit === 0) throw new WardError('codesDisabled');
      const now = clock.now();
      const w = window_seconds * 1000;
      const start = Math.floor(now / w) * w;
      const bucket = `account-codes:${purpose}:${sha256(destination)}`;
      if ((await storage.counters.hit(bucket, start, start + w)) > limit) {
        await deps.events.emit('account.code_limit_reached', { purpose }, 'account code limit reached', 'warn');
        throw rateLimited((start + w - now) / 1000);
      }
    },

    /** A new code (and, by email, a link) for the address; the previous one of this purpose dies. */
    async issue(input: IssueInput): Promise<Issued> {
      const s = deps.account();
      const now = clock.now();
      const id = randomToken(24);
      const code = randomDigits(s.verification_code_length);
      const link = input.channel === 'email' ? randomToken(32) : null;
      const row: AccountCodeRow = {
        id,
        purpose: input.purpose,
        user_id: input.userId,
        channel: input.channel,
        destination: input.destination,
        code_hmac: codeMac(id, code),
        link_digest: link ? sha256(link) : null,
        client_id: input.clientId ?? null,
        data: JSON.stringify(input.data ?? {}),
        attempts: 0,
        max_attempts: s.self_service.max_attempts,
        created_at: now,
        code_expires_at: now + s.self_service.code_ttl * 1000,
        link_expires_at: now + s.self_service.link_ttl * 1000,
        consumed_at: null,
        superseded_at: null,
      };
      await storage.transaction(async (tx) => {
        if (input.userId) await tx.accountCodes.lockUser(input.userId);
        await tx.accountCodes.issue(row, now);
      });
      return { id, code, link, codeTtl: s.self_service.code_ttl, linkTtl: s.self_service.link_ttl };
    },

    /**
     * Checks a typed code for an address without using it: the newest live row of the purpose (of
     * `userId` when given) has its attempt counted, then the code is compared in constant time.
     * Every refusal is the same invalidVerificationCode.
     */
    async checkCode(input: {
      purpose: AccountCodePurpose;
      destination: string;
      code: unknown;
      userId?: string;
    }): Promise<CheckedCode> {
      if (typeof input.code !== 'string' || !CODE_SHAPE.test(input.code)) throw invalid();
      const now = clock.now();
      const live = (await storage.accountCodes.liveForAddress(input.purpose, input.destination)).find(
        (r) => (input.userId === undefined || r.user_id === input.userId) && r.code_expires_at > now,
      );
      if (!live) throw invalid();
      const row = await storage.accountCodes.countAttempt(live.id);
      const right = !!row && safeEqual(codeMac(row.id, input.code), row.code_hmac);
      if (!row || row.attempts > row.max_attempts || !right) {
        await deps.events.emit(
          'account.code_failed',
          { user_id: live.user_id, purpose: input.purpose, attempts: row?.attempts },
          'account code refused',
        );
        throw invalid();
      }
      return withValues(row);
    },

    /** The live row of a link token, not used (undefined when unknown, used, superseded or expired). */
    async findLink(purpose: AccountCodePurpose, token: unknown): Promise<CheckedCode | undefined> {
      if (typeof token !== 'string' || !LINK_SHAPE.test(token)) return undefined;
      const row = await storage.accountCodes.findByLink(sha256(token));
      const now = clock.now();
      if (!row || row.purpose !== purpose || row.consumed_at !== null || row.superseded_at !== null) return undefined;
      return row.link_expires_at > now ? withValues(row) : undefined;
    },

    /**
     * What the user gave for an address: an emailed link's token (sent to that address, of that user
     * when given), else a typed code (checked and counted like checkCode). Never used here.
     */
    async checkCodeOrLink(input: {
      purpose: AccountCodePurpose;
      destination: string;
      code: unknown;
      userId?: string;
    }): Promise<CheckedCode> {
      if (typeof input.code !== 'string' || !LINK_SHAPE.test(input.code)) return api.checkCode(input);
      const row = await api.findLink(input.purpose, input.code);
      const mine =
        row && row.destination === input.destination && (input.userId === undefined || row.user_id === input.userId);
      if (!mine) throw invalid();
      return row;
    },

    /** Uses a checked row: exactly one caller wins; the others get invalidVerificationCode. */
    async consume(row: AccountCodeRow): Promise<void> {
      if (!(await storage.accountCodes.consume(row.id, clock.now()))) throw invalid();
    },

    /** Kills one issued message (it could not be sent: no code stays valid that nobody received). */
    kill: (id: string) => storage.accountCodes.supersede(id, clock.now()),

    /** Kills every live code and link of a user (of one purpose, or all). */
    supersedeOfUser: (userId: string, purpose?: AccountCodePurpose) =>
      storage.accountCodes.supersedeOfUser(userId, clock.now(), purpose),
  };
  return api;
}

export type AccountCodes = ReturnType<typeof createAccountCodes>;
