import type { FastifyReply } from 'fastify';
import type { WardApp } from '../typed-app.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import { notFound } from '../../errors/refusals.js';
import type { Language } from '../../errors/ward-error.js';
import type { AccountNotice } from '../../interaction/pages/account-text.js';
import type { AccountPageInput, SignInsView } from '../../interaction/pages/account.js';
import { parseUserAgent } from '../../lib/user-agent.js';
import {
  endOneSession,
  endOtherSessions,
  listSessions,
  recentSecurityEvents,
  type SignInsDeps,
} from '../../self-service/sign-ins.js';
import { accountSessionEndSchema, accountSessionsOthersSchema, accountTrustedDeviceSchema } from './schemas/account.js';
import type { AccountKit, AccountWho } from './account-kit.js';

/** The signed-in user of a post, with the id (digest) of its SSO session: the one that stays. */
interface Who extends AccountWho {
  session: AccountWho['session'] & { id: string };
}

type SignInsExtra = Pick<AccountPageInput, 'back'>;

/** What the account page's routes share (account.ts): the checks of a post, its answers. */
export interface AccountSignInsKit<W extends Who> extends AccountKit<W, SignInsExtra> {
  seeOther(reply: FastifyReply, notice: AccountNotice | null, back: AccountPageInput['back']): FastifyReply;
}

export interface AccountSignInsDeps extends SignInsDeps {
  events: SecurityEvents;
}

const PATH = '/identity/v1/account';
const EVENTS_SHOWN = 10;

const field = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 64) : '');

/** What the page shows of the user's sign-ins: `session` is the digest of the page's own session. */
export async function signInsView(
  r: AccountSignInsDeps,
  userId: string,
  session: string,
  language: Language,
): Promise<SignInsView> {
  const sessions = await listSessions(r, userId, session, language);
  const devices = await r.storage.trustedDevices.listOfUser(userId, r.clock.now());
  const events = await recentSecurityEvents(r, userId, EVENTS_SHOWN);
  return {
    sessions: sessions.map((s) => ({
      id: s.id,
      browser: s.browser,
      os: s.os,
      createdAt: s.createdAt,
      lastUsedAt: s.lastUsedAt,
      current: s.current,
      place: s.place,
    })),
    devices: devices.map((d) => ({
      id: d.id,
      ...parseUserAgent(d.name),
      createdAt: d.created_at,
      expiresAt: d.expires_at,
    })),
    events: events.map((e) => ({ type: e.type, at: e.at, by: e.by })),
  };
}

/**
 * The account page's "Where you're signed in" (docs/self-service.md): sign out one other session
 * (its grants end, its clients get a back-channel logout token), every other one, or stop trusting a
 * device. No step-up: these only take access away, like withdrawing a consent. Each is audited.
 */
export function accountSignInsRoutes<W extends Who>(app: WardApp, r: AccountSignInsDeps, page: AccountSignInsKit<W>) {
  app.post(`${PATH}/sessions/end`, { schema: accountSessionEndSchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    return page.attempt(req, reply, a, 'page', { back: a.back }, async () => {
      const userId = a.who.session.user.id;
      // Another user's session, or one already ended, is not found (no IDOR); this one is signed out with /logout.
      if (!(await endOneSession(r, userId, field(a.params.session)))) throw notFound('No such session');
      await r.events.emit(
        'session.ended',
        { user_id: userId, by: 'account_page', ip: req.ip },
        'the user ended one of their sessions',
      );
      return page.seeOther(reply, 'session_ended', a.back);
    });
  });

  app.post(`${PATH}/sessions/others`, { schema: accountSessionsOthersSchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    return page.attempt(req, reply, a, 'page', { back: a.back }, async () => {
      const userId = a.who.session.user.id;
      // The sessions' end and its webhook event in one transaction.
      let staged: StagedEvent | undefined;
      await endOtherSessions(r, userId, { session: a.who.session.id }, async (tx, ended) => {
        staged = await r.events.stage(tx, 'sessions.others_ended', { user_id: userId, by: 'account_page', ...ended });
      });
      if (staged) r.events.emitStaged(staged, 'other sessions ended');
      return page.seeOther(reply, 'others_ended', a.back);
    });
  });

  app.post(`${PATH}/trusted-devices/revoke`, { schema: accountTrustedDeviceSchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    return page.attempt(req, reply, a, 'page', { back: a.back }, async () => {
      const userId = a.who.session.user.id;
      const id = field(a.params.device);
      if (!(await r.storage.trustedDevices.revoke(id, userId, r.clock.now()))) throw notFound('No such trusted device');
      await r.events.emit(
        'mfa.trusted_device_revoked',
        { user_id: userId, device_id: id, by: 'account_page' },
        'the user stopped trusting a device',
      );
      return page.seeOther(reply, 'device_forgotten', a.back);
    });
  });
}
