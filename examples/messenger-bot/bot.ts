// A Messenger chatbot built on the webhook kit (src/messenger-kit), on node:https:
//   GET/POST /webhook   the kit's node:http listener (handshake, signed events, durable queue)
//   GET /link           the linking page the Log In button opens (Core SDK, see linking-page.ts)
//   GET /link.js        its script, bundled from npm with esbuild
// bot.buttonUrl(psid) is the Log In button URL the bot sends that user (Send API, not shown): it
// carries a nonce bound to the PSID, which the kit's nonceFor checks in the id_token (ML-06).
// Links live in memory here (a real bot stores them); onLinked / onUnlinked keep them current.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import {
  createMessengerWebhook,
  createNodeListener,
  type FetchLike,
  type LinkedProfile,
  type LinkFailure,
  type MessengerWebhook,
} from '../../src/messenger-kit/index.js';
import { PAGE_HEADERS, buildLinkingPage, linkingPageHtml, loadBundle } from './linking-page.js';

export interface BotOptions {
  /** The Facebook app secret and the webhook verify token. */
  appSecret: string;
  verifyToken: string;
  ward: { issuer: string; clientId: string; clientSecret?: string; jwtAlgorithm: 'HS256' | 'RS256'; fetch?: FetchLike };
  /** The Messenger callback base sent at /oauth/token (default: Meta's spelling). */
  redirectUri?: string;
  queuePath: string;
  tls: { cert: string; key: string };
  port?: number;
  host?: string;
  botName?: string;
  /** Build dist/link.js first (default true). */
  build?: boolean;
  log?: (line: string) => void;
}

export interface Link {
  psid: string;
  profile: LinkedProfile;
  claims: Record<string, unknown>;
  at: number;
}

export interface Bot {
  url: string;
  kit: MessengerWebhook;
  links: Map<string, Link>;
  failures: LinkFailure[];
  /** The Log In button URL for this PSID (a fresh nonce bound to it). */
  buttonUrl(psid: string): string;
  /** Resolves at the next onLinked / onLinkFailed (tests and demos wait on it instead of polling). */
  nextOutcome(): Promise<{ linked?: Link; failed?: LinkFailure }>;
  close(): Promise<void>;
}

export async function startMessengerBot(opts: BotOptions): Promise<Bot> {
  const log = opts.log ?? ((line: string) => console.log(line));
  if (opts.build !== false) await buildLinkingPage();
  const bundle = await loadBundle();
  const links = new Map<string, Link>();
  const failures: LinkFailure[] = [];
  const nonces = new Map<string, string>();
  let waiters: Array<(o: { linked?: Link; failed?: LinkFailure }) => void> = [];
  const settle = (o: { linked?: Link; failed?: LinkFailure }) => {
    const w = waiters;
    waiters = [];
    w.forEach((f) => f(o));
  };

  const kit = createMessengerWebhook({
    appSecret: opts.appSecret,
    verifyToken: opts.verifyToken,
    queuePath: opts.queuePath,
    ward: {
      ...opts.ward,
      redirectUri: opts.redirectUri ?? 'https://www.facebook.com/messenger_platform/account_linking',
    },
    nonceFor: (psid) => nonces.get(psid),
    onLinked(profile, psid, { claims }) {
      nonces.delete(psid); // one link per button
      const previous = links.get(psid);
      if (previous && previous.profile.sub !== profile.sub)
        log(`PSID ${psid} moves from ${previous.profile.sub} to ${profile.sub}`);
      const link = { psid, profile, claims, at: Date.now() };
      links.set(psid, link);
      log(`linked PSID ${psid} to ${profile.sub} (${profile.email ?? 'no email'})`);
      settle({ linked: link });
    },
    onUnlinked(psid) {
      links.delete(psid);
      nonces.delete(psid);
      log(`unlinked PSID ${psid}`);
    },
    onMessage(event) {
      const who = links.get(event.sender.id);
      log(
        `message from ${event.sender.id}${who ? ` (${who.profile.email ?? who.profile.sub})` : ' (not linked)'}: ${event.message?.text ?? '[no text]'}`,
      );
    },
    onLinkFailed(failure) {
      failures.push(failure);
      log(`link failed for PSID ${failure.psid}: ${failure.error}`);
      settle({ failed: failure });
    },
    log: (m) => log(m),
  });

  const webhook = createNodeListener(kit, { path: '/webhook' });
  let publicUrl = '';
  const wardDomain = new URL(opts.ward.issuer).host;
  const server: Server = createServer({ cert: opts.tls.cert, key: opts.tls.key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://bot.invalid');
    if (url.pathname === '/webhook') return webhook(req, res);
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
    if (url.pathname === '/link') {
      res.writeHead(200, PAGE_HEADERS);
      return void res.end(
        linkingPageHtml({ domain: wardDomain, clientId: opts.ward.clientId, botName: opts.botName ?? 'Ward bot' }),
      );
    }
    if (url.pathname === '/link.js') {
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      return void res.end(bundle);
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
  });
  server.listen(opts.port ?? 0, opts.host ?? 'localhost');
  await once(server, 'listening');
  publicUrl = `https://localhost:${(server.address() as { port: number }).port}`;

  const bot: Bot = {
    url: publicUrl,
    kit,
    links,
    failures,
    buttonUrl(psid) {
      const nonce = randomBytes(16).toString('base64url');
      nonces.set(psid, nonce);
      return `${publicUrl}/link?nonce=${nonce}`;
    },
    nextOutcome: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      server.closeAllConnections();
      server.close();
      await kit.close();
    },
  };
  return bot;
}
