// The registry of sign-in methods: every way into a sign-in, each declared once (contract.ts). The
// login page lists the enabled ones from here, in this order.
import type { LoginEntry, LoginPageContext, SignInContext, SignInMethod } from './contract.js';
import { customTokenMethod } from './custom-token/method.js';
import { passkeyMethod } from './passkey/method.js';
import { passwordMethod } from './password/method.js';
import { magicLinkMethod, smsMethod } from './passwordless/method.js';
import { socialMethod } from './social/method.js';

export const SIGN_IN_METHODS: readonly SignInMethod[] = [
  passwordMethod,
  magicLinkMethod,
  smsMethod,
  passkeyMethod,
  socialMethod,
  customTokenMethod,
];

/** The methods the account and this sign-in's client allow now. */
export const enabledMethods = (ctx: SignInContext): SignInMethod[] => SIGN_IN_METHODS.filter((m) => m.enabled(ctx));

/** What the enabled methods put on the login page, merged (each passwordless channel adds its own form). */
export async function loginEntries(ctx: LoginPageContext): Promise<LoginEntry> {
  const page: LoginEntry = {};
  for (const method of enabledMethods(ctx)) {
    const { passwordless, social, ...rest } = (await method.loginEntry?.(ctx)) ?? {};
    Object.assign(page, rest);
    if (social) page.social = [...(page.social ?? []), ...social];
    if (passwordless)
      page.passwordless = {
        magicLink: !!page.passwordless?.magicLink || passwordless.magicLink,
        sms: !!page.passwordless?.sms || passwordless.sms,
      };
  }
  return page;
}
