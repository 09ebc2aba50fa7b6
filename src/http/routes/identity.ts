import { publicConsents } from '../../accounts/user-consents.js';
import type { WardApp } from '../typed-app.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import { WardError } from '../../errors/ward-error.js';
import { invalidField, missingField } from '../../errors/refusals.js';
import { PASSWORD_MAX_LENGTH, passwordStrength, publicPasswordPolicy } from '../../accounts/password-policy.js';
import { publicCustomFields } from '../../accounts/custom-field-types.js';
import { TRUSTED_DEVICE_COOKIE } from './trusted-device.js';
import { clientOf as clientOfRequest, isJson, scopeOf, localeOf, languageFor } from './identity-request.js';
import { requireClientOrigin } from '../cors.js';
import { allowedReturnUrl } from '../../self-service/return-url.js';
import { requireSingle, str, type Params } from '../../protocol/params.js';
import {
  passwordLoginSchema,
  passwordStrengthSchema,
  remoteConfigSchema,
  signupSchema,
  ssoDataSchema,
} from './schemas/identity.js';
import { tknBinding } from '../browser-binding.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { TknService } from '../../protocol/tkn.js';
import type { Addresses } from '../../self-service/addresses.js';
import type { LiteClaims } from '../../self-service/lite-claim.js';
import type { SocialProviders } from '../../social/providers.js';
import type { Storage } from '../../storage/storage.js';
import type { SignInDeps } from '../sign-in.js';
import type { Captcha } from '../../captcha/siteverify.js';
import type { Delivery } from '../../integrations/delivery.js';
import { signInAudit } from '../../sign-in-methods/audit.js';
import { passwordFirstFactor } from '../../sign-in-methods/password/first-factor.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface IdentityDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  addresses: Addresses;
  captcha: Pick<Captcha, 'check'>;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  delivery: Pick<Delivery, 'canSend'>;
  events: SecurityEvents;
  limiter: Limiter;
  sessions: SessionService;
  socialProviders: SocialProviders;
  storage: Storage;
  tkn: TknService;
  users: UserService;
  liteClaims: Pick<LiteClaims, 'start'>;
}

/** The Core SDK's identity API: signup, password login, SSO data, remote config (userinfo: profile.ts). */
export function identityRoutes(app: WardApp, r: IdentityDeps, signIn: Pick<SignInDeps, 'nextStep'>): void {
  const clientOf = (params: Params) => clientOfRequest(r, params);
  const audit = signInAudit(r.events);

  app.post('/identity/v1/signup', { schema: signupSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    await r.limiter('signup', req.ip, r.account().rate_limits.signup);
    const client = await clientOf(params);
    await r.captcha.check('signup', params, req.ip);
    const scopes = scopeOf(params);
    const data = params.data;
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw invalidField('data', 'must be an object with email or phone_number and password');
    const verification = r.account().self_service.email_verification;
    const redirectUrl = allowedReturnUrl(client, 'redirect_url', params.redirect_url);
    const returnTo = allowedReturnUrl(
      client,
      'return_to_after_email_confirmation',
      params.return_to_after_email_confirmation,
    );
    // The signup's webhook event is written with the user, in its transaction.
    let signedUp: StagedEvent | undefined;
    const made = await r.users.signupOrClaim(data as Record<string, unknown>, {
      within: async (tx, u) => {
        signedUp = await r.events.stage(tx, 'account.signup', {
          client_id: client.client_id,
          user_id: u.id,
          method: 'api',
        });
      },
      // The email of a lite profile: nothing is written until the mailed link proves the address
      // (docs/profiles.md, "Lite profiles"). The answer tells nothing of the profile: no id, no tkn.
      claim: async (lite, claim) =>
        r.liteClaims.start(lite, claim, {
          clientId: client.client_id,
          redirectUrl,
          returnTo,
          locale: localeOf(req),
        }),
    });
    if (!('user' in made)) return reply.header('Cache-Control', 'no-store').send({});
    const { user } = made;
    if (signedUp) r.events.emitStaged(signedUp, 'signup');
    if (verification !== 'off' && user.email) {
      r.addresses.sendSignupVerification(user, {
        clientId: client.client_id,
        redirectUrl,
        returnTo,
        locale: localeOf(req),
      });
      // Required before sign-in: no tkn; the Core SDK then resolves signup with {} (nothing to sign in).
      if (verification === 'required') return reply.header('Cache-Control', 'no-store').send({ id: user.id });
    }
    const now = r.clock.now();
    const tkn = await r.tkn.issue(user.id, client.client_id, {
      scope: scopes.join(' '),
      amr: ['pwd'],
      auth_time: now,
      mfa_pending: false,
      ...tknBinding(req, reply),
    });
    return reply.header('Cache-Control', 'no-store').send({ id: user.id, tkn });
  });

  // The Core SDK's getPasswordStrength: zxcvbn's score as the user types (no owner known: no user info).
  app.post('/identity/v1/password/strength', { schema: passwordStrengthSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    await r.limiter('password_strength', req.ip, r.account().rate_limits.login);
    await clientOf(params);
    if (typeof params.password !== 'string') throw missingField('password');
    if (params.password.length > PASSWORD_MAX_LENGTH)
      throw invalidField('password', `must be at most ${PASSWORD_MAX_LENGTH} characters long`);
    return reply.header('Cache-Control', 'no-store').send({ score: await passwordStrength(params.password) });
  });

  app.post('/identity/v1/password/login', { schema: passwordLoginSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    await r.limiter('login', req.ip, r.account().rate_limits.login);
    const client = await clientOf(params);
    await r.captcha.check('password_login', params, req.ip);
    const scopes = scopeOf(params);
    const identifier = {
      email: params.email ?? params.username,
      phone_number: params.phone_number,
      custom_identifier: params.custom_identifier,
    };
    const attempt = { method: 'password' as const, clientId: client.client_id, ip: req.ip };
    const user = await passwordFirstFactor(
      { users: r.users, audit },
      { ...attempt, identifier, password: params.password, language: languageFor(req) },
    );
    // The same answer for an unknown user and a wrong password (no enumeration).
    if (!user) throw new WardError('invalidEmailOrPassword');
    const now = r.clock.now();
    const amr = ['pwd'];
    // A second factor owed (next-step's rule): this tkn is good for /mfa/stepup only.
    const mfa = await signIn.nextStep.secondFactorOwed(
      { user, amr },
      { trustedDeviceCookie: req.cookies[TRUSTED_DEVICE_COOKIE] },
    );
    const tkn = await r.tkn.issue(user.id, client.client_id, {
      scope: scopes.join(' '),
      amr,
      auth_time: now,
      mfa_pending: mfa,
      ...tknBinding(req, reply),
    });
    await (mfa ? audit.mfaRequired : audit.succeeded)({ ...attempt, userId: user.id, amr });
    return reply.header('Cache-Control', 'no-store').send(mfa ? { tkn, mfa_required: true } : { tkn });
  });

  app.get('/identity/v1/sso/data', { schema: ssoDataSchema }, async (req, reply) => {
    const q = requireSingle(req.query);
    const client = await clientOf(q);
    // Told only to the client named (issue 33): its own origins; and nothing to a client with
    // `sso: false`, which no session answers (next-step's forcesLogin).
    requireClientOrigin(req, reply, client, r.config.issuer);
    reply.header('Cache-Control', 'no-store');
    const session = client.sso ? await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]) : null;
    const user = session?.user;
    if (!session || !user) return reply.send({ is_authenticated: false });
    const name = [user.given_name, user.family_name].filter(Boolean).join(' ');
    return reply.send({
      is_authenticated: true,
      ...(name ? { name } : {}),
      ...(user.email ? { email: user.email } : {}),
      ...(user.phone_number ? { phone_number: user.phone_number } : {}),
      last_login_type: session.amr.includes('social')
        ? session.amr[session.amr.indexOf('social') + 1]
        : session.amr.includes('pwd')
          ? 'password'
          : session.amr[0],
      has_password: !!user.password_hash,
      social_providers: [...new Set((await r.storage.identities.listOfUser(user.id)).map((i) => i.provider))],
    });
  });

  app.get('/identity/v1/config', { schema: remoteConfigSchema }, async (req, reply) => {
    const q = requireSingle(req.query);
    const client = await clientOf(q);
    const lang = str(q, 'lang', 20);
    const account = r.account();
    // What the account really offers: a channel counts when Ward can send on it.
    const email = r.delivery.canSend('email');
    const sms = r.delivery.canSend('sms');
    const google = r.socialProviders.get('google')?.provider;
    const googleClientId = google?.type === 'oidc' ? google.client_id : undefined;
    return reply.header('Cache-Control', 'public, max-age=60').send({
      sso: client.sso,
      sms: account.passwordless.sms && sms,
      web_authn: r.account().passkeys.enabled,
      language: lang ?? account.default_language,
      pkce_enforced: client.pkce_enforced,
      is_public: client.type === 'public',
      is_implicit_flow_forbidden: !client.implicit_flow,
      scope: client.scope,
      social_providers: r.socialProviders.list().map((p) => p.name),
      password_policy: publicPasswordPolicy(r.account()),
      custom_fields: publicCustomFields(r.account().custom_fields),
      consents: publicConsents(account.consents, lang),
      resource_base_url: r.config.issuer,
      mfa_sms_enabled: sms,
      mfa_email_enabled: email,
      // No risk-based step (new-device notices or step-up on a new device) exists in Ward.
      rba_enabled: false,
      login_type_allowed: r.account().sign_in_identifiers,
      // Google One Tap: the SDK's instantiateOneTap needs the client id Google's id_tokens name.
      ...(googleClientId ? { google_client_id: googleClientId } : {}),
    });
  });
}
