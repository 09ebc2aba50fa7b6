// Captcha verification: the Core SDK sends `captcha_token` (and `captcha_provider`) with signup,
// password login, passwordless start and password reset; Ward asks the account's provider whether the
// token is good, by the siteverify protocol reCAPTCHA, hCaptcha, Cloudflare Turnstile and CaptchaFox
// share (a form POST of `secret`, `response` and the user's address; a JSON answer with `success`,
// reCAPTCHA v3 adding `score`). The secret comes from the environment (WARD_CAPTCHA_SECRET) and never
// leaves this module but in that POST; the token is never logged.
import type { Logger } from 'pino';
import type { CaptchaSettings } from '../config/types.js';
import type { CAPTCHA_POINTS } from '../config/schema/captcha.js';
import { WardError } from '../errors/ward-error.js';
import type { Outbound } from '../lib/outbound/client.js';
import { type CaptchaProvider, type CaptchaWidget, postedToken, widgetOf } from './widget.js';

export type { CaptchaProvider };

export type CaptchaPoint = (typeof CAPTCHA_POINTS)[number];

/** Each provider's own siteverify endpoint (its public documentation). */
export const SITEVERIFY: Record<CaptchaProvider, string> = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  captchafox: 'https://api.captchafox.com/siteverify',
};

/** The longest token Ward forwards (providers' tokens are a few KB at most). */
const MAX_TOKEN = 8192;

export interface CaptchaDeps {
  outbound: Pick<Outbound, 'fetch'>;
  account: () => { captcha: CaptchaSettings };
  /** WARD_CAPTCHA_SECRET. */
  secret: string | null;
  log: Pick<Logger, 'warn' | 'error'>;
}

export interface CaptchaInput {
  captcha_token?: unknown;
  captcha_provider?: unknown;
}

interface SiteverifyAnswer {
  success?: unknown;
  score?: unknown;
  'error-codes'?: unknown;
}

export function createCaptcha(deps: CaptchaDeps) {
  /** The provider could not say: refuse (503), or let the request through when the account says so. */
  function unavailable(settings: CaptchaSettings, point: CaptchaPoint, why: string): void {
    deps.log.warn({ captcha: { provider: settings.provider, point, why } }, 'captcha check unavailable');
    if (!settings.allow_when_unavailable) throw new WardError('captchaUnavailable');
  }

  /** The account's settings when the hosted form of `point` asks a captcha (a site key to draw it is set). */
  function hostedSettings(
    point: CaptchaPoint,
  ): (CaptchaSettings & { provider: CaptchaProvider; site_key: string }) | null {
    const settings = deps.account().captcha;
    const { provider, site_key: siteKey } = settings;
    if (provider === 'none' || !siteKey || !settings.applies_to.includes('hosted_pages')) return null;
    if (!settings.applies_to.includes(point)) return null;
    return { ...settings, provider, site_key: siteKey };
  }

  const api = {
    /**
     * Passes when the account asks no captcha at `point`, or the provider says the token is good;
     * else throws captchaMissing / captchaFailed (400) or captchaUnavailable (503).
     */
    async check(point: CaptchaPoint, input: CaptchaInput, ip?: string): Promise<void> {
      const settings = deps.account().captcha;
      const provider = settings.provider;
      if (provider === 'none' || !settings.applies_to.includes(point)) return;
      const token = input.captcha_token;
      if (typeof token !== 'string' || token === '') throw new WardError('captchaMissing');
      if (token.length > MAX_TOKEN) throw new WardError('captchaFailed');
      if (input.captcha_provider !== undefined && input.captcha_provider !== provider)
        throw new WardError('captchaFailed', {
          description: `This account verifies captchas with ${provider}, not ${String(input.captcha_provider)}`,
        });
      if (!deps.secret) return unavailable(settings, point, 'WARD_CAPTCHA_SECRET is not set');
      const form = new URLSearchParams({ secret: deps.secret, response: token });
      if (ip) form.set(provider === 'captchafox' ? 'remoteIp' : 'remoteip', ip);
      if (settings.site_key) form.set('sitekey', settings.site_key);
      let answer: SiteverifyAnswer;
      try {
        const res = await deps.outbound.fetch(settings.verify_url ?? SITEVERIFY[provider], {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
          timeoutMs: settings.timeout_ms,
          maxBytes: 64 * 1024,
        });
        if (res.status !== 200) return unavailable(settings, point, `siteverify answered ${res.status}`);
        answer = (await res.json()) as SiteverifyAnswer;
      } catch (e) {
        return unavailable(settings, point, (e as Error).name === 'SyntaxError' ? 'not JSON' : (e as Error).message);
      }
      if (typeof answer !== 'object' || answer === null || typeof answer.success !== 'boolean')
        return unavailable(settings, point, 'siteverify answered no success flag');
      if (!answer.success) throw new WardError('captchaFailed');
      if (typeof answer.score === 'number' && answer.score < settings.min_score) throw new WardError('captchaFailed');
    },

    /** The widget the hosted form of `point` draws, or null when that form asks no captcha. */
    widget(point: CaptchaPoint): CaptchaWidget | null {
      const s = hostedSettings(point);
      return s && widgetOf(s.provider, s.site_key, s.script_url);
    },

    /** The check of a hosted form's post: the token is in the provider's own field (the widget's). */
    async checkHosted(point: CaptchaPoint, form: Record<string, unknown>, ip?: string): Promise<void> {
      const s = hostedSettings(point);
      if (s) await api.check(point, { captcha_token: postedToken(s.provider, form) }, ip);
    },
  };
  return api;
}

export type Captcha = ReturnType<typeof createCaptcha>;

const REFUSALS: ReadonlySet<string> = new Set(['captchaMissing', 'captchaFailed', 'captchaUnavailable']);

/** Whether an error is a captcha's refusal (a hosted form shows it on the page, even the 503). */
export const isCaptchaRefusal = (e: unknown): e is WardError => e instanceof WardError && REFUSALS.has(e.id);
