// A Messenger platform simulator, for the tests and for local demos (examples/messenger-bot).
// It plays the three parts Meta plays in account linking (security-checklist.md §4):
// 1. the Log In button: opens the bot's linking page with `redirect_uri` (the Messenger callback
//    carrying a fresh `account_linking_token`) and `account_linking_token` in its query;
// 2. the callback: given the URL the browser was finally sent to (a Location header, or a navigation
//    to facebook.com intercepted in Playwright), it checks the token, reads `authorization_code`;
// 3. the webhook call: POSTs the signed `messaging_account_linking` event to the bot, and retries
//    when the bot does not answer 200 within the delivery timeout (20 s on the platform).
// It never contacts facebook.com: the callback is only parsed, and Playwright navigations to it are
// fulfilled locally.
import { createHmac, randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Route } from 'playwright-core';

export type FetchFn = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface SimulatorOptions {
  appSecret: string;
  /** The bot's webhook (POST target). */
  webhookUrl: string;
  /** The Log In button's URL: the bot's HTTPS linking page. */
  linkingPageUrl?: string;
  pageId?: string;
  /** 'meta' = https://www.facebook.com/messenger_platform/account_linking?..., 'reachfive' = https://facebook.com/.../?... */
  spelling?: 'meta' | 'reachfive';
  /** A delivery not answered 200 within this is retried (default 20 000 ms, as the platform). */
  deliveryTimeoutMs?: number;
  /** Deliveries of one event before giving up (default 5). */
  maxDeliveries?: number;
  /** Pause between deliveries (default 0). */
  retryDelayMs?: number;
  /** Escape non-ASCII as \uXXXX in the JSON, as Meta historically does (default false). */
  escapeUnicode?: boolean;
  /** Default: global fetch. Pass undici's with a dispatcher to trust a test CA. */
  fetch?: FetchFn;
  now?: () => number;
}

export interface DeliveryAttempt {
  status: number | null;
  error?: string;
  ms: number;
}
export interface DeliveryResult {
  delivered: boolean;
  attempts: DeliveryAttempt[];
  body: string;
}
export interface LinkOutcome {
  psid: string;
  /** The code Ward sent back (undefined on refusal / failure: then nothing is delivered). */
  authorizationCode?: string;
  error?: string;
  delivery?: DeliveryResult;
}

export const MESSENGER_CALLBACKS = {
  meta: 'https://www.facebook.com/messenger_platform/account_linking',
  reachfive: 'https://facebook.com/messenger_platform/account_linking/',
} as const;

const TOKEN_TTL_MS = 5 * 60 * 1000;
export const isFacebook = (u: URL) => u.hostname === 'facebook.com' || u.hostname.endsWith('.facebook.com');

export class MessengerSimulator {
  /** Every webhook POST made, in order. */
  readonly deliveries: Array<{ payload: unknown; result: DeliveryResult }> = [];
  private readonly pending = new Map<string, { psid: string; expires: number }>();
  private readonly opts: Required<Omit<SimulatorOptions, 'linkingPageUrl' | 'fetch'>> &
    Pick<SimulatorOptions, 'linkingPageUrl' | 'fetch'>;
  private seq = 0;

  constructor(options: SimulatorOptions) {
    this.opts = {
      pageId: 'PAGE_ID_1',
      spelling: 'meta',
      deliveryTimeoutMs: 20_000,
      maxDeliveries: 5,
      retryDelayMs: 0,
      escapeUnicode: false,
      now: Date.now,
      ...options,
    };
  }

  /**
   * The user taps the Log In button: a fresh account_linking_token for this PSID, and the URL Messenger
   * opens: the button's url (the bot may have put its own parameters in it, e.g. a nonce) with
   * `redirect_uri` and `account_linking_token` added.
   */
  logInButton(
    psid: string,
    buttonUrl = this.opts.linkingPageUrl,
  ): { url: string; redirectUri: string; accountLinkingToken: string } {
    if (!buttonUrl) throw new Error('simulator: no linkingPageUrl / button url');
    const accountLinkingToken = randomBytes(24).toString('base64url');
    this.pending.set(accountLinkingToken, { psid, expires: this.opts.now() + TOKEN_TTL_MS });
    const redirect = new URL(MESSENGER_CALLBACKS[this.opts.spelling]);
    redirect.searchParams.set('account_linking_token', accountLinkingToken);
    const url = new URL(buttonUrl);
    url.searchParams.set('redirect_uri', redirect.toString());
    url.searchParams.set('account_linking_token', accountLinkingToken);
    return { url: url.toString(), redirectUri: redirect.toString(), accountLinkingToken };
  }

  /**
   * The browser arrived at `location` (the final redirect). A Messenger callback with a known,
   * unexpired token and an authorization_code is delivered to the webhook; anything else is not.
   */
  async receiveRedirect(location: string): Promise<LinkOutcome> {
    const u = new URL(location);
    if (u.protocol !== 'https:' || !isFacebook(u) || !/^\/messenger_platform\/account_linking\/?$/.test(u.pathname)) {
      throw new Error(`simulator: not a Messenger callback: ${u.origin}${u.pathname}`);
    }
    const tokens = u.searchParams.getAll('account_linking_token');
    const entry = tokens.length === 1 ? this.pending.get(tokens[0]) : undefined;
    if (!entry) throw new Error('simulator: unknown or repeated account_linking_token');
    this.pending.delete(tokens[0]); // the platform accepts one completion per token
    if (entry.expires < this.opts.now()) return { psid: entry.psid, error: 'account_linking_token expired' };
    const codes = u.searchParams.getAll('authorization_code');
    if (codes.length !== 1 || !codes[0]) {
      return { psid: entry.psid, error: u.searchParams.get('error') ?? 'no authorization_code' };
    }
    const delivery = await this.sendLinked(entry.psid, codes[0]);
    return { psid: entry.psid, authorizationCode: codes[0], delivery };
  }

  sendLinked(psid: string, authorizationCode: string): Promise<DeliveryResult> {
    return this.deliver(
      this.envelope([
        this.item(psid, { account_linking: { status: 'linked', authorization_code: authorizationCode } }),
      ]),
    );
  }

  sendUnlinked(psid: string): Promise<DeliveryResult> {
    return this.deliver(this.envelope([this.item(psid, { account_linking: { status: 'unlinked' } })]));
  }

  sendText(psid: string, text: string): Promise<DeliveryResult> {
    return this.deliver(
      this.envelope([this.item(psid, { message: { mid: `m_${randomBytes(8).toString('hex')}`, text } })]),
    );
  }

  /** One messaging item (sender, recipient, timestamp + fields). */
  item(psid: string, fields: Record<string, unknown>): Record<string, unknown> {
    return {
      sender: { id: psid },
      recipient: { id: this.opts.pageId },
      timestamp: this.opts.now() + this.seq++,
      ...fields,
    };
  }

  /** The webhook envelope: one entry per call here (pass several items to batch them). */
  envelope(items: Array<Record<string, unknown>>, entries = 1): Record<string, unknown> {
    const per = Math.ceil(items.length / entries);
    const entry = Array.from({ length: entries }, (_, i) => ({
      id: this.opts.pageId,
      time: this.opts.now(),
      messaging: items.slice(i * per, (i + 1) * per),
    }));
    return { object: 'page', entry };
  }

  /** The bytes the platform sends for a payload (optionally \u-escaped), and their signature. */
  serialize(payload: unknown): { body: string; signature: string } {
    let body = JSON.stringify(payload);
    if (this.opts.escapeUnicode)
      body = body.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return { body, signature: `sha256=${createHmac('sha256', this.opts.appSecret).update(body).digest('hex')}` };
  }

  /** POSTs the signed payload until the bot answers 200 in time, or maxDeliveries is reached. */
  async deliver(payload: unknown): Promise<DeliveryResult> {
    const { body, signature } = this.serialize(payload);
    const doFetch: FetchFn = this.opts.fetch ?? ((url, init) => fetch(url, init));
    const attempts: DeliveryAttempt[] = [];
    for (let i = 0; i < this.opts.maxDeliveries; i++) {
      if (i > 0 && this.opts.retryDelayMs > 0) await new Promise((r) => setTimeout(r, this.opts.retryDelayMs));
      const started = Date.now();
      try {
        const res = await doFetch(this.opts.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
          body,
          signal: AbortSignal.timeout(this.opts.deliveryTimeoutMs),
        });
        await res.text();
        attempts.push({ status: res.status, ms: Date.now() - started });
        if (res.status === 200) break;
      } catch (e) {
        attempts.push({
          status: null,
          error: (e as Error).name === 'TimeoutError' ? 'timeout' : (e as Error).message,
          ms: Date.now() - started,
        });
      }
    }
    const result = { delivered: attempts.at(-1)?.status === 200, attempts, body };
    this.deliveries.push({ payload, result });
    return result;
  }

  /**
   * Playwright: catches the browser's way back to Messenger without ever reaching facebook.com.
   * - navigations of `origins` (Ward, the linking page) are fetched by Playwright without following
   *   redirects: a redirect to facebook.com is captured and answered locally;
   * - a direct navigation to facebook.com is captured and answered locally;
   * - any other request to facebook.com (e.g. a redirect hop) is captured from the request event
   *   (launch Chromium with --host-resolver-rules mapping facebook.com to ~NOTFOUND as the net).
   * Resolves each waiter of nextCallback() with the URL.
   */
  async interceptInPlaywright(target: Page | BrowserContext, origins: string[]): Promise<void> {
    const seen = (url: string) => {
      if (this.callbackUrls.includes(url)) return;
      this.callbackUrls.push(url);
      this.waiters.shift()?.(url);
    };
    const page = `<!doctype html><title>Messenger</title><h1 id="messenger-done">Back to Messenger</h1>`;
    await target.route(
      (u) => isFacebook(u),
      async (route: Route) => {
        seen(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/html', body: page });
      },
    );
    await target.route(
      (u) => origins.includes(u.origin),
      async (route: Route) => {
        const req = route.request();
        if (!req.isNavigationRequest()) return route.continue();
        const res = await route.fetch({ maxRedirects: 0 });
        const location = res.headers().location;
        if (res.status() >= 300 && res.status() < 400 && location && isFacebook(new URL(location, req.url()))) {
          seen(new URL(location, req.url()).toString());
          return route.fulfill({ status: 200, contentType: 'text/html', body: page });
        }
        return route.fulfill({ response: res });
      },
    );
    target.on('request', (req) => {
      if (isFacebook(new URL(req.url()))) seen(req.url());
    });
  }

  /** Every Messenger callback URL the browser was sent to (Playwright interception). */
  readonly callbackUrls: string[] = [];
  private waiters: Array<(url: string) => void> = [];

  /** The next callback URL the intercepted browser is sent to. */
  nextCallback(limitMs = 15_000): Promise<string> {
    const next = new Promise<string>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`simulator: no redirect to Messenger within ${limitMs} ms`)),
        limitMs,
      );
      this.waiters.push((url) => {
        clearTimeout(t);
        resolve(url);
      });
    });
    next.catch(() => undefined); // a test may await it later: no unhandled rejection meanwhile
    return next;
  }
}
