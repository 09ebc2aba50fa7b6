// The captcha widget of the hosted forms: each provider's own script renders it into an element of its
// class (with the account's site key) inside the form, and puts the token in a form field of its name,
// which the form posts. Also what the page's Content-Security-Policy must allow for it: the provider's
// script, the frames it draws, what it calls and styles (each provider's published CSP guidance), or
// the origin of `script_url` when a stand-in serves the script.
import type { CaptchaSettings } from '../config/types.js';

export type CaptchaProvider = Exclude<CaptchaSettings['provider'], 'none'>;

interface ProviderWidget {
  script: string;
  className: string;
  field: string;
  sources: { script: string[]; frame: string[]; connect: string[]; style: string[] };
}

const PROVIDERS: Record<CaptchaProvider, ProviderWidget> = {
  recaptcha: {
    script: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
    field: 'g-recaptcha-response',
    sources: {
      script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
      frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
      connect: [],
      style: [],
    },
  },
  hcaptcha: {
    script: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
    field: 'h-captcha-response',
    sources: {
      script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    },
  },
  turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    field: 'cf-turnstile-response',
    sources: {
      script: ['https://challenges.cloudflare.com'],
      frame: ['https://challenges.cloudflare.com'],
      connect: [],
      style: [],
    },
  },
  captchafox: {
    script: 'https://cdn.captchafox.com/api.js',
    className: 'captchafox',
    field: 'cf-captcha-response',
    sources: {
      script: ['https://cdn.captchafox.com'],
      frame: ['https://cdn.captchafox.com'],
      connect: ['https://api.captchafox.com'],
      style: [],
    },
  },
};

/** One hosted form's widget: what the page draws, and what its CSP allows for it. */
export interface CaptchaWidget {
  provider: CaptchaProvider;
  siteKey: string;
  className: string;
  /** The form field the provider's script fills with the token. */
  field: string;
  /** The script tag's src. */
  script: string;
  /** CSP sources per directive. */
  sources: ProviderWidget['sources'];
}

export function widgetOf(provider: CaptchaProvider, siteKey: string, scriptUrl: string | null): CaptchaWidget {
  const p = PROVIDERS[provider];
  const own = scriptUrl ? [new URL(scriptUrl).origin] : null;
  const sources = own ? { script: own, frame: own, connect: own, style: [] } : p.sources;
  return { provider, siteKey, className: p.className, field: p.field, script: scriptUrl ?? p.script, sources };
}

/** The token a hosted form posted, in its provider's field. */
export const postedToken = (provider: CaptchaProvider, form: Record<string, unknown>): unknown =>
  form[PROVIDERS[provider].field];
