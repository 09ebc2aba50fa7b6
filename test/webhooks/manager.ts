// What the webhook tests share: the management client that runs them, its token, a signature check
// with the `standardwebhooks` package, and the loop that runs a Ward's sender until receivers got enough.
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { tokenRequest } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';

export const SECRET = 'webhook-manager-secret-of-40-characters!!';
export const MANAGER = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:webhooks', 'manage:users', 'read:users', 'manage:clients', 'read:clients', 'manage:keys'],
};

export async function managerToken(ward: TestWard): Promise<string> {
  const res = await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'ops', client_secret: SECRET });
  return ((await res.json()) as { access_token: string }).access_token;
}

export const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

/** Runs a Ward's sender until `ok` holds, moving the clock by `stepMs` before each pass (retries). */
export async function deliverUntil(ward: TestWard, ok: () => boolean, stepMs = 0, what = ''): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) {
    await ward.registry.events.flush();
    ward.clock.advance(stepMs);
    await ward.registry.webhookDelivery.tick();
  }
  assert.ok(ok(), `not delivered ${what}`);
}
