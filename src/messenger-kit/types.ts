// Messenger webhook kit: the public types (options, events, results). Framework-agnostic: nothing here
// depends on node:http, Fastify or Express. See src/messenger-kit/README.md.

/** The part of the WHATWG fetch API the kit uses (global fetch, undici's fetch, or a test double). */
export type FetchLike = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{
  status: number;
  ok: boolean;
  text(): Promise<string>;
}>;

/** How the bot reaches Ward. */
export interface WardOptions {
  /** Ward's issuer, e.g. https://id.example.com (no trailing slash); the id_token's `iss` must equal it. */
  issuer: string;
  clientId: string;
  /** Sent as client_secret_post when set; required for HS256 (the verification key). */
  clientSecret?: string;
  /**
   * The Messenger callback base sent at /oauth/token, e.g. https://www.facebook.com/messenger_platform/account_linking
   */
  redirectUri: string;
  jwtAlgorithm: 'HS256' | 'RS256';
  /** Defaults to the global fetch. Use it to pass a dispatcher / CA (undici) or a test double. */
  fetch?: FetchLike;
  /** Defaults to `${issuer}/jwks.json`. */
  jwksUri?: string;
}

/** The identity handed to onLinked, read from the verified id_token. */
export interface LinkedProfile {
  sub: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

/** One item of entry[].messaging[] (only the fields the kit reads are typed). */
export interface MessagingEvent {
  sender: { id: string };
  recipient: { id: string };
  timestamp?: number;
  message?: { mid?: string; text?: string; [k: string]: unknown };
  postback?: { mid?: string; [k: string]: unknown };
  account_linking?: { status: 'linked' | 'unlinked'; authorization_code?: string };
  [k: string]: unknown;
}

/** A failure the kit recorded instead of retrying forever. */
export interface LinkFailure {
  psid: string;
  kind: ItemKind;
  error: string;
  attempts: number;
}

export type ItemKind = 'linked' | 'unlinked' | 'message';

export interface MessengerWebhookOptions {
  /** The Facebook app secret: the key of X-Hub-Signature-256. */
  appSecret: string;
  /** The token you typed in the app dashboard for the GET verification handshake. */
  verifyToken: string;
  ward: WardOptions;
  /** SQLite file of the durable queue (created when missing). One consumer process per file. */
  queuePath: string;
  /** A verified link: the Ward profile and the PSID (messaging.sender.id). */
  onLinked(
    profile: LinkedProfile,
    psid: string,
    details: { claims: Record<string, unknown>; event: MessagingEvent },
  ): unknown;
  onUnlinked?(psid: string, event: MessagingEvent): unknown;
  onMessage?(event: MessagingEvent): unknown;
  /** A link that will not happen (invalid_grant, bad id_token, nonce mismatch, retries exhausted). */
  onLinkFailed?(failure: LinkFailure): unknown;
  /**
   * ML-06: the nonce the bot bound to this PSID when it sent the Log In button. When set, the
   * id_token's `nonce` must equal it (undefined = no binding = refused).
   */
  nonceFor?(psid: string): string | undefined | Promise<string | undefined>;
  /** Milliseconds since the epoch; inject a fake clock in tests. Default Date.now. */
  now?: () => number;
  /** Abort an exchange / JWKS fetch after this long (default 10 000 ms). */
  exchangeTimeoutMs?: number;
  /** Attempts for transient failures (network, timeout, 5xx, 429, a throwing callback); default 5. */
  maxAttempts?: number;
  /** First retry delay, doubled each time up to 60 s (default 1000 ms). */
  retryBaseMs?: number;
  /** Items processed at once (never two of the same PSID); default 4. */
  concurrency?: number;
  /** Least time between two JWKS refetches caused by an unknown kid (default 5000 ms). */
  jwksCooldownMs?: number;
  /** Finished items are kept this long for de-duplication, then purged (default 7 days). */
  retentionMs?: number;
  /** Largest accepted body (default 1 MiB): larger answers 413. */
  maxBodyBytes?: number;
  /** Start processing on creation (default true). False: call start() yourself (tests, multi-step boot). */
  autoStart?: boolean;
  /** Where the kit reports internal errors (default console.error). Never given codes or tokens. */
  log?: (message: string) => void;
}

export interface HandlerResult {
  status: number;
  contentType: string;
  body: string;
}

/** Headers as node:http gives them, a plain record, or a WHATWG Headers object. */
export type HeadersLike = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface QueueStats {
  pending: number;
  done: number;
  failed: number;
}

export interface MessengerWebhook {
  /** GET: the hub.* handshake. Takes URLSearchParams, a query string, or a parsed query object. */
  handleVerification(query: URLSearchParams | string | Record<string, unknown>): HandlerResult;
  /** POST: signature check over the raw bytes, durable enqueue, then 200 (processing is asynchronous). */
  handleEvent(rawBody: Buffer, headers: HeadersLike): HandlerResult;
  /** Starts (or resumes) processing of pending items; called by the constructor unless autoStart=false. */
  start(): void;
  /** Processes every item due now; resolves when nothing due is left in flight. */
  drain(): Promise<void>;
  stats(): QueueStats;
  failures(): LinkFailure[];
  /** Stops processing (in-flight exchanges are aborted and stay pending), then closes the queue. */
  close(): Promise<void>;
}
