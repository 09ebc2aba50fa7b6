// Test support for the Messenger webhook kit: a stand-in for Ward's token endpoint and JWKS on
// loopback HTTP (single-use codes, id_tokens signed HS256 with the client secret or RS256 with a
// rotatable key, modes that answer slowly, fail, or hold the request), and a kit factory with a
// fresh queue file and recorded callbacks.
import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  createMessengerWebhook,
  type LinkedProfile,
  type MessagingEvent,
  type MessengerWebhookOptions,
  type LinkFailure,
} from '../../src/messenger-kit/index.js';

export const APP_SECRET = 'app-secret-for-tests';
export const VERIFY_TOKEN = 'verify-token-for-tests';
export const CLIENT_ID = 'messenger-bot';
export const CLIENT_SECRET = 'a-messenger-bot-secret-of-at-least-32-bytes';
export const CALLBACK_BASE = 'https://www.facebook.com/messenger_platform/account_linking';

export interface StubCode {
  profile: LinkedProfile;
  nonce?: string;
  claims?: Record<string, unknown>;
}

/** Ward's /oauth/token and /jwks.json, as far as the kit sees them. */
export class FakeWard extends EventEmitter {
  url = '';
  alg: 'HS256' | 'RS256' = 'RS256';
  /** ok: answer; slow: answer after slowMs; error500: 500; hold: never answer (until close). */
  mode: 'ok' | 'slow' | 'error500' | 'hold' = 'ok';
  slowMs = 30_000;
  tokenRequests: Array<Record<string, string>> = [];
  jwksFetches = 0;
  /** Signs with this secret instead of the client's (a forged token). */
  signingSecret = CLIENT_SECRET;
  issuerOverride: string | null = null;
  private codes = new Map<string, StubCode>();
  private keys: Array<{ kid: string; privateKey: CryptoKey; jwk: JWK }> = [];
  private server: Server;
  private timers = new Set<NodeJS.Timeout>();
  now: () => number = Date.now;

  constructor() {
    super();
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await this.rotateKey();
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  /** A new RS256 signing key (the previous ones stay published). */
  async rotateKey(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = randomBytes(8).toString('hex');
    this.keys.unshift({
      kid,
      privateKey: privateKey as CryptoKey,
      jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    });
  }

  issue(profile: Partial<LinkedProfile> = {}, extra: Omit<StubCode, 'profile'> = {}): string {
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, {
      profile: {
        sub: `user-${randomBytes(4).toString('hex')}`,
        given_name: 'Ada',
        family_name: 'Lovelace',
        email: 'ada@example.com',
        ...profile,
      },
      ...extra,
    });
    return code;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/jwks.json') {
      this.jwksFetches++;
      return json(200, { keys: this.keys.map((k) => k.jwk) });
    }
    if (req.method !== 'POST' || req.url !== '/oauth/token') return json(404, { error: 'not_found' });
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    this.tokenRequests.push(form);
    this.emit('token', form);
    if (this.mode === 'hold') return; // never answered; closed with the server
    if (this.mode === 'error500') return json(500, { error: 'server_error' });
    if (this.mode === 'slow') {
      await new Promise<void>((r) => {
        const t = setTimeout(r, this.slowMs);
        this.timers.add(t);
      });
      if (res.destroyed) return;
    }
    const entry = this.codes.get(form.code);
    this.codes.delete(form.code); // single use
    if (
      !entry ||
      form.client_id !== CLIENT_ID ||
      form.grant_type !== 'authorization_code' ||
      form.redirect_uri !== CALLBACK_BASE
    ) {
      return json(400, { error: 'invalid_grant', error_description: 'invalid code' });
    }
    const now = Math.floor(this.now() / 1000);
    const jwt = new SignJWT({
      iss: this.issuerOverride ?? this.url,
      aud: CLIENT_ID,
      iat: now,
      exp: now + 3600,
      ...entry.profile,
      ...(entry.nonce ? { nonce: entry.nonce } : {}),
      ...(entry.claims ?? {}),
    });
    const idToken =
      this.alg === 'HS256'
        ? await jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(this.signingSecret))
        : await jwt.setProtectedHeader({ alg: 'RS256', kid: this.keys[0].kid }).sign(this.keys[0].privateKey);
    json(200, {
      id_token: idToken,
      access_token: randomBytes(16).toString('hex'),
      token_type: 'Bearer',
      expires_in: 3600,
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

export interface Recorded {
  linked: Array<{ profile: LinkedProfile; psid: string; claims: Record<string, unknown> }>;
  unlinked: string[];
  messages: MessagingEvent[];
  failed: LinkFailure[];
  order: string[];
}

export function tempQueuePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'messenger-kit-')), 'queue.db');
}

/** A kit wired to `ward`, with every callback recorded. */
export function makeKit(ward: FakeWard, overrides: Partial<MessengerWebhookOptions> = {}) {
  const rec: Recorded = { linked: [], unlinked: [], messages: [], failed: [], order: [] };
  const queuePath = overrides.queuePath ?? tempQueuePath();
  const kit = createMessengerWebhook({
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
    queuePath,
    ward: {
      issuer: ward.url,
      clientId: CLIENT_ID,
      redirectUri: CALLBACK_BASE,
      jwtAlgorithm: ward.alg,
      ...(ward.alg === 'HS256' ? { clientSecret: CLIENT_SECRET } : {}),
    },
    onLinked: (profile, psid, d) => {
      rec.linked.push({ profile, psid, claims: d.claims });
      rec.order.push(`linked:${psid}`);
    },
    onUnlinked: (psid) => {
      rec.unlinked.push(psid);
      rec.order.push(`unlinked:${psid}`);
    },
    onMessage: (e) => {
      rec.messages.push(e);
      rec.order.push(`message:${e.sender.id}`);
    },
    onLinkFailed: (f) => {
      rec.failed.push(f);
    },
    retryBaseMs: 1000,
    jwksCooldownMs: 0,
    log: () => undefined,
    ...overrides,
  });
  return { kit, rec, queuePath };
}

/** Waits for `count` token requests at the stub (an event, no polling). */
export function tokenRequestsReach(ward: FakeWard, count: number): Promise<void> {
  if (ward.tokenRequests.length >= count) return Promise.resolve();
  return new Promise((resolve) => {
    const on = () => {
      if (ward.tokenRequests.length >= count) {
        ward.off('token', on);
        resolve();
      }
    };
    ward.on('token', on);
  });
}
