// The contract of a sign-in method. A method declares itself once: its id (what the audit log and
// the login page call it), the RFC 8176 amr values its sign-ins carry, whether the account and the
// client allow it, what it adds to the hosted login page, and the routes that sign in by it. The
// registry (index.ts) lists every method; the login page shows the enabled ones from it.
//
// Whatever the method, once it has authenticated the user it calls
// `nextStep.afterFirstFactor(at, { user, amr, authTime, method }, browser)` (interaction/next-step.ts):
// that records `login.succeeded` (or `login.mfa_required`) and decides the rest. A refusal is recorded
// through `signInAudit(events).failed({ method, reason, clientId })` (audit.ts). An API path that
// answers without an interaction (a tkn, the password grant) asks `nextStep.secondFactorOwed` and
// records through the same audit.
import type { AccountSettings } from '../config/types.js';
import type { LoginPageInput } from '../interaction/pages/login.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

export type SignInMethodId = 'password' | 'passkey' | 'magic_link' | 'sms' | 'social' | 'custom_token';

/** A social provider as the login page names it. */
export interface ProviderName {
  name: string;
  label: string;
}

/** What decides whether a method is offered: the account's settings, the sign-in's request (its client), the providers. */
export interface SignInContext {
  account: AccountSettings;
  request: AuthorizeRequest;
  providers: readonly ProviderName[];
}

/** What the login page's builder hands a method besides the context. */
export interface LoginPageContext extends SignInContext {
  /** The stored interaction's handle (the page's forms and links name it). */
  interaction: string;
  /** A discoverable passkey sign-in's request options bound to this page; undefined when none can be made. */
  passkeyOptions(): Promise<{ options: unknown } | undefined>;
}

/** The parts of the login page a method may fill (login.ts renders them). */
export type LoginEntry = Partial<Pick<LoginPageInput, 'social' | 'passkey' | 'passwordless' | 'forgotHref'>>;

export interface SignInMethod {
  id: SignInMethodId;
  /** The amr values (RFC 8176) a sign-in by this method carries; social adds the provider's name. */
  amr: readonly string[];
  /** Whether the account and this sign-in's client allow the method now. */
  enabled(ctx: SignInContext): boolean;
  /** What the method adds to the hosted login page when enabled (none: the method has no place there). */
  loginEntry?(ctx: LoginPageContext): LoginEntry | Promise<LoginEntry>;
  /**
   * The HTTP routes that sign in by this method, as `METHOD /path`. Their handlers are the method's
   * routes.ts (its folder's one web file, registered in app.ts), or for the older methods a file of
   * http/routes/; test/sign-in-methods holds this list to the routes the app really serves.
   */
  routes: readonly string[];
}
