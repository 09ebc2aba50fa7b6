/**
 * A user's data as JSON (GDPR articles 15 and 20): the profile, identifiers and their verification,
 * linked identities, second factors (destinations masked), passkeys (names and dates), trusted
 * devices, sessions, grants per client, the sign-in protection state, and the audit events about the
 * user or by them, the consents given to apps, and a deletion of the account waiting for its grace
 * period. No secret, hash, digest or key material: what the user gave and what happened. The
 * management API's export of one user and the account page's "Download my data" both answer it.
 */
import { consentsView, historyView } from './user-consents.js';
import type { SignInProtection } from './sign-in-protection.js';
import { keysOfUser } from './sign-in-protection.js';
import { maskDestination } from '../integrations/delivery.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { userView } from './user-view.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const list = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
};

/** Most audit events read per direction (about the user, by the user). */
const AUDIT_LIMIT = 5000;

export async function exportUser(
  deps: { storage: Storage; protection: SignInProtection; now: number },
  u: User,
): Promise<Record<string, unknown>> {
  const { storage } = deps;
  const [
    factors,
    identities,
    passkeys,
    devices,
    sessions,
    grants,
    about,
    by,
    signIn,
    profile,
    consents,
    deletion,
    customIdentifier,
  ] = await Promise.all([
    storage.mfaCredentials.listOfUser(u.id),
    storage.identities.listOfUser(u.id),
    storage.passkeys.listOfUser(u.id),
    storage.userRecords.trustedDevicesOf(u.id),
    storage.userRecords.sessionsOf(u.id),
    storage.userRecords.grantsOf(u.id),
    storage.audit.list({ target: `user:${u.id}`, limit: AUDIT_LIMIT }),
    storage.audit.list({ actorId: u.id, limit: AUDIT_LIMIT }),
    deps.protection.state(keysOfUser(u)),
    storage.profiles.find(u.id),
    storage.consents.listForUser(u.id),
    storage.accountDeletions.find(u.id),
    storage.customIdentifiers.ofUser(u.id),
  ]);
  // The user's consents to the account's consent definitions (a newsletter), and every change of them.
  const [profileConsents, consentHistory] = await Promise.all([
    storage.userConsents.ofUser(u.id),
    storage.userConsents.history(u.id),
  ]);
  const clients = new Map<string, { client_id: string; name: string | null; grants: unknown[] }>();
  for (const g of grants) {
    const c = clients.get(g.client_id) ?? { client_id: g.client_id, name: g.client_name, grants: [] };
    c.grants.push({
      scope: g.scope,
      amr: list(g.amr),
      created_at: iso(g.created_at),
      expires_at: iso(g.expires_at),
      revoked_at: iso(g.revoked_at),
    });
    clients.set(g.client_id, c);
  }
  const events = new Map([...about, ...by].map((e) => [e.id, e]));
  return {
    format: 'ward.user-export.v1',
    exported_at: iso(deps.now),
    user: { ...userView(u), custom_identifier: customIdentifier ?? null, updated_at: iso(u.updated_at) },
    profile: profile ? { ...profile, updated_at: iso(profile.updated_at) } : null,
    identities: identities.map((i) => ({
      provider: i.provider,
      subject: i.subject,
      email: i.email,
      created_at: iso(i.created_at),
    })),
    second_factors: factors.map((f) => ({
      type: f.type,
      destination: maskDestination(f.destination),
      name: f.friendly_name,
      verified_at: iso(f.verified_at),
      created_at: iso(f.created_at),
    })),
    passkeys: passkeys.map((k) => ({
      name: k.friendly_name,
      device_type: k.device_type,
      backed_up: k.backed_up,
      // Registered as a second factor (the required enrolment page's key), not to sign in.
      second_factor: k.second_factor === true,
      created_at: iso(k.created_at),
      last_used_at: iso(k.last_used_at),
    })),
    trusted_devices: devices.map((d) => ({
      name: d.name,
      created_at: iso(d.created_at),
      expires_at: iso(d.expires_at),
      revoked_at: iso(d.revoked_at),
    })),
    sessions: sessions.map((s) => ({
      amr: list(s.amr),
      auth_time: iso(s.auth_time),
      created_at: iso(s.created_at),
      last_seen_at: iso(s.last_seen_at),
      expires_at: iso(s.expires_at),
      revoked_at: iso(s.revoked_at),
    })),
    grants_by_client: [...clients.values()],
    consents: consents.map((c) => ({
      client_id: c.client_id,
      scopes: c.scopes,
      created_at: iso(c.created_at),
      updated_at: iso(c.updated_at),
    })),
    profile_consents: consentsView(profileConsents),
    profile_consent_history: consentHistory.map(historyView),
    pending_deletion: deletion ? { requested_at: iso(deletion.requested_at), due_at: iso(deletion.due_at) } : null,
    sign_in_protection: { ...signIn, blocked_until: iso(signIn.blocked_until) },
    audit_events: [...events.values()]
      .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id))
      .map((e) => ({
        at: iso(e.at),
        action: e.action,
        actor: `${e.actor_type}:${e.actor_id}`,
        target: e.target,
        ip: e.ip,
        outcome: e.outcome,
        details: list(e.details),
      })),
  };
}
