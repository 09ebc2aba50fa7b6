import { randomBytes } from 'node:crypto';
import { WardError } from '../errors/ward-error.js';
import { normaliseStoredEmails } from './stored-emails.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { WardConfig } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from 'pino';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface FirstStartDeps {
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  log: Logger;
  storage: Storage;
  users: UserService;
}

export interface FirstStartReport {
  admin?: { email: string; password: string | null };
  demoClients: Array<{ client_id: string; type: string; client_secret?: string }>;
}

/**
 * At every start, the stored email addresses of older versions in their normalised form
 * (stored-emails.ts). On the first start: an Administrator account (credentials printed once, or taken from
 * WARD_ADMIN_EMAIL / WARD_ADMIN_PASSWORD) and a demo public and confidential client.
 */
export async function firstStart(r: FirstStartDeps): Promise<FirstStartReport> {
  const report: FirstStartReport = { demoClients: [] };
  await normaliseStoredEmails(r);
  if ((await r.storage.users.countByRole('administrator')) === 0) {
    const email = r.config.admin.email ?? 'admin@ward.local';
    const generated = r.config.admin.password === null;
    const password = r.config.admin.password ?? randomBytes(18).toString('base64url');
    try {
      await r.users.signup({ email, password, given_name: 'Ward', family_name: 'Administrator' }, 'administrator', {
        generatedPassword: generated,
        byAdministrator: true,
      });
    } catch (e) {
      // A WARD_ADMIN_PASSWORD the password policy refuses stops the start, saying which setting to change.
      if (e instanceof WardError && e.details?.[0]?.field === 'data.password')
        throw new Error(`WARD_ADMIN_PASSWORD: ${e.description} (account password policy)`);
      throw e;
    }
    report.admin = { email, password: generated ? password : null };
  }
  if (r.config.demoClients) {
    const base = r.config.issuer;
    if (!(await r.clients.find('demo-public'))) {
      await r.clients.upsert(
        {
          client_id: 'demo-public',
          name: 'Demo single-page app',
          type: 'public',
          jwt_algorithm: 'RS256',
          allowed_callback_urls: [`${base}/demo/callback`, 'https://localhost:3000/callback'],
          allowed_origins: [new URL(base).origin, 'https://localhost:3000'],
          sso: true,
          scope: 'openid profile email phone',
          pkce_enforced: true,
          implicit_flow: false,
          response_types: ['code'],
          post_logout_redirect_uris: [`${base}/demo/callback`, 'https://localhost:3000/'],
          backchannel_logout_uri: null,
          backchannel_logout_session_required: false,
          grant_types: ['authorization_code', 'refresh_token'],
          management_scopes: [],
          custom_token_login: false,
          first_party: true,
          logo_uri: null,
          client_uri: null,
          policy_uri: null,
          tos_uri: null,
          token_endpoint_auth_method: null,
          jwks: null,
          jwks_uri: null,
          require_pushed_authorization_requests: false,
          request_object_signing_alg: null,
          require_signed_request_object: false,
          dpop_bound_access_tokens: false,
          client_credentials_resources: {},
        },
        'demo',
      );
      report.demoClients.push({ client_id: 'demo-public', type: 'public' });
    }
    if (!(await r.clients.find('demo-confidential'))) {
      const secret = randomBytes(32).toString('base64url');
      await r.clients.upsert(
        {
          client_id: 'demo-confidential',
          name: 'Demo server-side app',
          type: 'confidential',
          client_secret: secret,
          jwt_algorithm: 'HS256',
          allowed_callback_urls: ['https://localhost:3001/callback'],
          allowed_origins: [],
          sso: false,
          scope: 'openid profile email',
          pkce_enforced: false,
          implicit_flow: false,
          response_types: ['code'],
          post_logout_redirect_uris: ['https://localhost:3001/'],
          backchannel_logout_uri: null,
          backchannel_logout_session_required: false,
          grant_types: ['authorization_code', 'refresh_token'],
          management_scopes: [],
          custom_token_login: false,
          first_party: true,
          logo_uri: null,
          client_uri: null,
          policy_uri: null,
          tos_uri: null,
          token_endpoint_auth_method: null,
          jwks: null,
          jwks_uri: null,
          require_pushed_authorization_requests: false,
          request_object_signing_alg: null,
          require_signed_request_object: false,
          dpop_bound_access_tokens: false,
          client_credentials_resources: {},
        },
        'demo',
      );
      report.demoClients.push({ client_id: 'demo-confidential', type: 'confidential', client_secret: secret });
    }
  }
  return report;
}
