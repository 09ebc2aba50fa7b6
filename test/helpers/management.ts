import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/authz/roles.js';
import { codeFor, redeem, tokenRequest } from './oauth.js';
import type { TestWard } from './ward.js';

/** A first-party console client: user tokens issued to it carry the user's role permissions. */
export const CONSOLE_CLIENT = {
  client_id: 'console',
  name: 'Ward console',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://console.example/cb'],
  allowed_origins: ['https://console.example'],
  management_scopes: [
    'read:clients',
    'manage:clients',
    'manage:keys',
    'read:settings',
    'manage:settings',
    'read:users',
    'manage:users',
    'read:audit',
    'manage:roles',
    'manage:webhooks',
  ],
};

/** An access token of a console user with the given role (null: a user with no role). */
export async function consoleToken(ward: TestWard, role: Role | null): Promise<{ token: string; userId: string }> {
  const { code, verifier, user } = await codeFor(ward, {
    clientId: 'console',
    redirectUri: 'https://console.example/cb',
    scope: 'openid',
  });
  await ward.registry.storage.users.setRole(user.id, role, ward.clock.now());
  const { body } = await redeem(ward, code, verifier, 'console', 'https://console.example/cb');
  if (!body.access_token) throw new Error(JSON.stringify(body));
  return { token: body.access_token, userId: user.id };
}

export function api(ward: TestWard, token: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await ward.fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, b?: unknown) => call('POST', p, b),
    put: (p: string, b?: unknown) => call('PUT', p, b),
    patch: (p: string, b?: unknown) => call('PATCH', p, b),
    del: (p: string) => call('DELETE', p),
  };
}

export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

/** A client_credentials access token of a management client (the grant must answer 200). */
export async function clientCredentialsToken(ward: TestWard, clientId: string, secret: string): Promise<string> {
  const res = await tokenRequest(ward, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: secret,
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
