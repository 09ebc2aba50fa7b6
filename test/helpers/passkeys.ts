// Passkeys in Chromium: a virtual authenticator on a page (the DevTools protocol's WebAuthn domain),
// the Core SDK's calls that end in a redirect, and a ceremony run by the page itself on options a
// test got from Ward, answered in the SDK's wire format for the test to send (or tamper with).
import type { Page } from 'playwright-core';
import { callbackOutcome, type SdkApp } from './sdk-app.js';

export interface AuthenticatorOptions {
  hasResidentKey: boolean;
  hasUserVerification: boolean;
  isUserVerified?: boolean;
}

/** Adds a CTAP2 platform authenticator to the page; answers a function that removes it. */
export async function addVirtualAuthenticator(page: Page, o: AuthenticatorOptions): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      automaticPresenceSimulation: true,
      isUserVerified: o.hasUserVerification,
      ...o,
    },
  });
  return async () => {
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
  };
}

/**
 * Runs `client[method](...args)`, which ends by sending the browser through /oauth/authorize to the
 * app's /cb; answers what the callback's code exchange gave (the SDK's AuthResult, or {failed}).
 */
export async function sdkThroughCallback(
  page: Page,
  app: SdkApp,
  method: string,
  args: unknown[],
): Promise<Record<string, any>> {
  const rejected = page
    .evaluate(
      ([m, a]) =>
        (window as unknown as { client: Record<string, (...x: unknown[]) => Promise<unknown>> }).client[m as string]!(
          ...(a as unknown[]),
        ).then(
          () => null,
          (e: unknown) => (e instanceof Error ? { message: e.message } : e),
        ),
      [method, args] as const,
    )
    .catch(() => null); // the page navigated away: the call went on to /oauth/authorize
  const outcome = await Promise.race([
    callbackOutcome(page, app),
    rejected.then((e) => (e ? { failed: e } : new Promise<never>(() => {}))),
  ]);
  return outcome as Record<string, any>;
}

/** Runs `client[method](...args)` in the page: its result, or its rejection. */
export const sdkCalls = (page: Page, method: string, args: unknown[]): Promise<{ ok?: any; failed?: any }> =>
  page.evaluate(
    ([m, a]) =>
      (window as unknown as { client: Record<string, (...x: unknown[]) => Promise<unknown>> }).client[m as string]!(
        ...(a as unknown[]),
      ).then(
        (ok) => ({ ok: ok as any }),
        (e: unknown) => ({ failed: (e instanceof Error ? { message: e.message } : e) as any }),
      ),
    [method, args] as const,
  );

// Browser-side code as source text: the test runner's TypeScript transform would wrap named inner
// functions with a helper the page does not have.
const CODEC = `
  const bin = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const b64 = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');`;

/** navigator.credentials.create on snake_cased creation options from Ward: the attestation as the SDK sends it. */
export const browserAttestation = (page: Page, publicKey: Record<string, any>): Promise<Record<string, any>> =>
  page.evaluate(`(async (o) => {${CODEC}
    const cred = await navigator.credentials.create({
      publicKey: {
        challenge: bin(o.challenge),
        rp: o.rp,
        user: { id: bin(o.user.id), name: o.user.name, displayName: o.user.display_name },
        pubKeyCredParams: o.pub_key_cred_params,
        excludeCredentials: (o.exclude_credentials || []).map((c) => ({ type: 'public-key', id: bin(c.id) })),
        authenticatorSelection: {
          residentKey: o.authenticator_selection && o.authenticator_selection.resident_key,
          userVerification: o.authenticator_selection && o.authenticator_selection.user_verification,
        },
      },
    });
    const r = cred.response;
    return {
      id: cred.id,
      raw_id: b64(cred.rawId),
      type: 'public-key',
      response: {
        client_data_json: b64(r.clientDataJSON),
        attestation_object: b64(r.attestationObject),
        transports: r.getTransports(),
      },
    };
  })(${JSON.stringify(publicKey)})`);

/** navigator.credentials.get on snake_cased request options from Ward: the assertion as the SDK sends it. */
export const browserAssertion = (page: Page, publicKey: Record<string, any>): Promise<Record<string, any>> =>
  page.evaluate(`(async (o) => {${CODEC}
    const cred = await navigator.credentials.get({
      publicKey: {
        challenge: bin(o.challenge),
        rpId: o.rp_id,
        allowCredentials: o.allow_credentials.map((c) => ({ type: 'public-key', id: bin(c.id) })),
        userVerification: o.user_verification,
      },
    });
    const r = cred.response;
    return {
      id: cred.id,
      raw_id: b64(cred.rawId),
      type: 'public-key',
      response: {
        authenticator_data: b64(r.authenticatorData),
        client_data_json: b64(r.clientDataJSON),
        signature: b64(r.signature),
        user_handle: r.userHandle ? b64(r.userHandle) : null,
      },
    };
  })(${JSON.stringify(publicKey)})`);
