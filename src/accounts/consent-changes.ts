import type { AccountSettings } from '../config/types.js';
import type { Delivery } from '../integrations/delivery.js';
import { recordAudit, type Actor } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import { randomId, randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { StoredUserConsent } from '../storage/sql/user-consents.js';
import type { User } from '../storage/sql/users.js';
import {
  consentsView,
  currentVersion,
  historyView,
  readConsents,
  requireConsents,
  textIn,
  type ConsentInput,
  type ConsentReporter,
} from './user-consents.js';

/** Where a double opt-in link leads (http/routes/user-consents.ts). */
export const CONSENT_CONFIRM_PATH = '/identity/v1/user-consents/confirm';

/** The one-time token kind of a double opt-in link. */
const CONFIRM_KIND = 'consent_confirm';
/** How long a double opt-in link works, seconds. */
const CONFIRM_TTL = 7 * 24 * 3600;

/** A double opt-in waiting for its mailed link: sent once the change committed. */
export interface PendingConfirmation {
  key: string;
  token: string;
  version_id: number;
  language: string;
}

/** The last sequence number of this process (microseconds of the real time, strictly increasing). */
let lastSeq = 0;

/**
 * A time-ordered id, so the history reads in the order it was written: the change's time, then a
 * sequence strictly increasing in this process (two changes of one millisecond keep their order),
 * then random digits (two processes never make the same id).
 */
function historyId(at: number): string {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  return `${at.toString(36).padStart(9, '0')}${lastSeq.toString(36).padStart(11, '0')}${randomId().slice(0, 8)}`;
}

/** One consent of an imported user: the state the import names, at its own date (else now). */
export type ImportedConsent = ConsentInput & { at?: number };

/**
 * Writes an import's consents as given (reporter `import`: a double opt-in is taken as already
 * confirmed), each kept in the history; no audit row each (the import's own `users.imported` says it).
 */
export async function storeImportedConsents(
  tx: Pick<Repos, 'userConsents'>,
  userId: string,
  consents: readonly ImportedConsent[],
  now: number,
): Promise<void> {
  for (const { at, ...c } of consents)
    await tx.userConsents.put(
      userId,
      { ...c, waiting_double_accept: false, reporter: 'import', at: at ?? now },
      historyId(at ?? now),
    );
}

/**
 * Users' consents: stored with every change kept (history), audited as `user.consents_changed` (a
 * webhook event) in the change's transaction; a double opt-in grant waits (`waiting_double_accept`)
 * until the link mailed to the user is followed.
 */
export function createConsentChanges(deps: {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  issuer: string;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
}) {
  const { storage, clock } = deps;
  const definition = (key: string) => deps.account().consents.find((d) => d.key === key);

  /** Writes one consent's new state and its history row. */
  const put = (tx: Repos, userId: string, c: StoredUserConsent) => tx.userConsents.put(userId, c, historyId(c.at));

  /** The consent a link would confirm, without using it, or undefined. */
  async function peek(token: string): Promise<{ title: string } | undefined> {
    const row = await storage.oneTime.find(CONFIRM_KIND, sha256(token));
    if (!row || row.consumed_at !== null || row.expires_at <= clock.now()) return undefined;
    const p = JSON.parse(row.payload) as { key: string; version_id: number; language: string };
    const d = definition(p.key);
    if (!d) return undefined;
    const version = d.versions.find((v) => v.version_id === p.version_id) ?? currentVersion(d);
    return { title: textIn(version, p.language).title };
  }

  return {
    /** Validates `consents` against the account's definitions (throws a 400, nothing stored). */
    read: (raw: unknown, at: string): ConsentInput[] => readConsents(raw, deps.account().consents, at),

    /** Every active required definition must be granted among these (a signup by the user). */
    require: (given: ConsentInput[], at: string): void => requireConsents(given, deps.account().consents, at),

    /** The user's consents in the Core SDK's shape. */
    async of(userId: string) {
      return consentsView(await storage.userConsents.ofUser(userId));
    },

    /** Every change of the user's consents, oldest first. */
    async history(userId: string) {
      return (await storage.userConsents.history(userId)).map(historyView);
    },

    /**
     * Stores the consents in the change's transaction: a state that does not change is not written
     * again; a double opt-in grant (but by an import) waits for its link. Answers the links to mail.
     */
    async store(
      tx: Repos,
      userId: string,
      inputs: ConsentInput[],
      reporter: ConsentReporter,
      actor: Actor,
    ): Promise<PendingConfirmation[]> {
      if (!inputs.length) return [];
      const now = clock.now();
      const current = new Map((await tx.userConsents.ofUser(userId)).map((c) => [c.key, c]));
      const pending: PendingConfirmation[] = [];
      const changed: string[] = [];
      for (const i of inputs) {
        const was = current.get(i.key);
        const confirmLater = i.consent_type === 'double-opt-in' && i.granted && reporter !== 'import';
        const same = was && was.granted === i.granted && was.version_id === i.version_id && was.language === i.language;
        if (same && !was.waiting_double_accept) continue;
        if (same && confirmLater) continue; // already waiting for its link
        await put(tx, userId, {
          ...i,
          granted: i.granted && !confirmLater,
          waiting_double_accept: confirmLater,
          reporter,
          at: now,
        });
        changed.push(i.key);
        if (confirmLater) {
          const token = randomToken();
          await tx.oneTime.insert({
            digest: sha256(token),
            kind: CONFIRM_KIND,
            user_id: userId,
            client_id: '',
            payload: JSON.stringify({ key: i.key, version_id: i.version_id, language: i.language }),
            expires_at: now + CONFIRM_TTL * 1000,
            consumed_at: null,
            created_at: now,
          });
          pending.push({ key: i.key, token, version_id: i.version_id, language: i.language });
        }
      }
      if (changed.length)
        await recordAudit(tx, now, actor, 'user.consents_changed', `user:${userId}`, 'success', {
          keys: changed,
          reporter,
        });
      return pending;
    },

    /** Mails the double opt-in links (in the background, once the change committed). */
    sendConfirmations(user: User, pending: PendingConfirmation[], locale?: string): void {
      if (!user.email) return;
      for (const p of pending) {
        const d = definition(p.key);
        if (!d) continue;
        const version = d.versions.find((v) => v.version_id === p.version_id) ?? currentVersion(d);
        const to = user.email;
        deps.background.run(() =>
          deps.delivery.sendAccountMessage({
            kind: 'confirm_consent',
            channel: 'email',
            to,
            address: textIn(version, p.language).title,
            link: `${deps.issuer}${CONFIRM_CONFIRM_QUERY(p.token)}`,
            linkTtl: CONFIRM_TTL,
            locale: locale ?? p.language,
          }),
        );
      }
    },

    /** The consent a link would confirm, without using it (the page before its button), or undefined. */
    peek,

    /** Follows a double opt-in link: grants the consent it waits for (once). */
    async confirm(token: string, ip: string | null): Promise<{ title: string }> {
      const shown = await peek(token);
      if (!shown) throw new WardError('consentConfirmationInvalid');
      await storage.transaction(async (tx) => {
        const used = await tx.oneTime.consume(CONFIRM_KIND, sha256(token), clock.now());
        if (used.state !== 'ok' || used.row.expires_at <= clock.now())
          throw new WardError('consentConfirmationInvalid');
        const p = JSON.parse(used.row.payload) as { key: string; version_id: number; language: string };
        const userId = used.row.user_id;
        const was = (await tx.userConsents.ofUser(userId)).find((c) => c.key === p.key);
        // Withdrawn (or changed) since the link was sent: the link grants nothing any more.
        if (!was?.waiting_double_accept || was.version_id !== p.version_id)
          throw new WardError('consentConfirmationInvalid');
        const now = clock.now();
        await put(tx, userId, { ...was, granted: true, waiting_double_accept: false, reporter: 'end_user', at: now });
        await recordAudit(
          tx,
          now,
          { type: 'user', id: userId, ip },
          'user.consents_changed',
          `user:${userId}`,
          'success',
          {
            keys: [p.key],
            reporter: 'end_user',
          },
        );
      });
      return shown;
    },
  };
}

const CONFIRM_CONFIRM_QUERY = (token: string) => `${CONSENT_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;

export type ConsentChanges = ReturnType<typeof createConsentChanges>;
