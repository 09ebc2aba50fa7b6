// Messenger webhook kit: the code exchange at Ward's /oauth/token and the id_token check.
// Exchange: form body grant_type=authorization_code, code, client_id, redirect_uri (the Messenger
// callback base), and client_secret only when configured (identity-api.md, "Messenger account linking").
// Verification (jose): the algorithm is the configured one, never the token's header; HS256 with the
// client secret; RS256 with the JWKS at `${issuer}/jwks.json`, cached and fetched again when a token
// names an unknown kid (at most once per cooldown). iss must equal the issuer, aud contain the client,
// exp is required (and azp must be the client when aud lists several audiences).
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { FetchLike, LinkedProfile, WardOptions } from './types.js';

/** Why a link failed; `permanent` ones are recorded and never retried. */
export class LinkError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface Exchanged {
  profile: LinkedProfile;
  claims: Record<string, unknown>;
}

const defaultFetch: FetchLike = (url, init) => fetch(url, init);

export class WardClient {
  private readonly fetch: FetchLike;
  private readonly jwksUri: string;
  private jwks: ReturnType<typeof createLocalJWKSet> | null = null;
  private jwksFetchedAt = -Infinity;
  private jwksLoading: Promise<void> | null = null;
  private readonly hsKey: Uint8Array | null;

  constructor(
    private readonly ward: WardOptions,
    private readonly opts: { now: () => number; timeoutMs: number; jwksCooldownMs: number },
  ) {
    this.fetch = ward.fetch ?? defaultFetch;
    this.jwksUri = ward.jwksUri ?? `${ward.issuer}/jwks.json`;
    if (ward.jwtAlgorithm === 'HS256' && !ward.clientSecret)
      throw new Error('messenger-kit: HS256 needs ward.clientSecret (the verification key)');
    if (ward.jwtAlgorithm !== 'HS256' && ward.jwtAlgorithm !== 'RS256')
      throw new Error('messenger-kit: ward.jwtAlgorithm must be HS256 or RS256');
    this.hsKey = ward.jwtAlgorithm === 'HS256' ? new TextEncoder().encode(ward.clientSecret) : null;
  }

  /** Exchanges the code and verifies the id_token; throws LinkError. */
  async link(code: string, signal: AbortSignal, expectedNonce?: string | null): Promise<Exchanged> {
    const idToken = await this.exchange(code, signal);
    const claims = await this.verify(idToken, signal);
    if (expectedNonce !== undefined && (expectedNonce === null || claims.nonce !== expectedNonce)) {
      throw new LinkError('id_token nonce does not match the nonce bound to this PSID', true);
    }
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const profile: LinkedProfile = { sub: claims.sub! };
    for (const k of ['given_name', 'family_name', 'email'] as const)
      if (str(claims[k]) !== undefined) profile[k] = str(claims[k]);
    return { profile, claims: claims as Record<string, unknown> };
  }

  private async call(url: string, init: Parameters<FetchLike>[1], signal: AbortSignal) {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const res = await this.fetch(url, { ...init, signal: AbortSignal.any([signal, timeout]) });
      return { status: res.status, ok: res.ok, text: await res.text() };
    } catch (e) {
      if (signal.aborted) throw new LinkError('stopped', false);
      throw new LinkError(`${new URL(url).pathname}: ${timeout.aborted ? 'timed out' : (e as Error).message}`, false);
    }
  }

  private async exchange(code: string, signal: AbortSignal): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: this.ward.clientId,
      redirect_uri: this.ward.redirectUri,
    });
    if (this.ward.clientSecret) form.set('client_secret', this.ward.clientSecret);
    const res = await this.call(
      `${this.ward.issuer}/oauth/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      },
      signal,
    );
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(res.text) as Record<string, unknown>;
    } catch {
      // not JSON: judged by the status below
    }
    if (!res.ok) {
      const err = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
      // 5xx and 429 may pass; an OAuth error (invalid_grant, invalid_client, ...) will not.
      const transient = res.status >= 500 || res.status === 429;
      throw new LinkError(`token endpoint: ${err} (${res.status})`, !transient);
    }
    if (typeof body.id_token !== 'string') throw new LinkError('token endpoint: no id_token in the answer', true);
    return body.id_token;
  }

  /** One JWKS fetch at a time: concurrent links share it. */
  private loadJwks(signal: AbortSignal): Promise<void> {
    this.jwksLoading ??= this.fetchJwks(signal).finally(() => {
      this.jwksLoading = null;
    });
    return this.jwksLoading;
  }

  private async fetchJwks(signal: AbortSignal): Promise<void> {
    const res = await this.call(this.jwksUri, { method: 'GET', headers: { accept: 'application/json' } }, signal);
    if (!res.ok) throw new LinkError(`jwks: HTTP ${res.status}`, false);
    let set: JSONWebKeySet;
    try {
      set = JSON.parse(res.text) as JSONWebKeySet;
      this.jwks = createLocalJWKSet(set);
    } catch (e) {
      throw new LinkError(`jwks: ${(e as Error).message}`, false);
    }
    this.jwksFetchedAt = this.opts.now();
  }

  private async verify(idToken: string, signal: AbortSignal): Promise<JWTPayload> {
    const options = {
      issuer: this.ward.issuer,
      audience: this.ward.clientId,
      algorithms: [this.ward.jwtAlgorithm],
      requiredClaims: ['exp', 'sub'],
      currentDate: new Date(this.opts.now()),
      clockTolerance: 5,
    };
    try {
      let payload: JWTPayload;
      if (this.hsKey) {
        payload = (await jwtVerify(idToken, this.hsKey, options)).payload;
      } else {
        if (!this.jwks) await this.loadJwks(signal);
        try {
          payload = (await jwtVerify(idToken, this.jwks!, options)).payload;
        } catch (e) {
          if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
          // Fetched a moment ago: try again later rather than hammer the JWKS (or give up on the link).
          if (this.opts.now() - this.jwksFetchedAt < this.opts.jwksCooldownMs)
            throw new LinkError('id_token: unknown kid (JWKS fetched recently)', false);
          await this.loadJwks(signal); // a rotated key: fetch the set again, once
          payload = (await jwtVerify(idToken, this.jwks!, options)).payload;
        }
      }
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.ward.clientId) {
        throw new LinkError('id_token: azp is not this client', true);
      }
      return payload;
    } catch (e) {
      if (e instanceof LinkError) throw e;
      throw new LinkError(`id_token: ${(e as Error).message}`, true);
    }
  }
}
