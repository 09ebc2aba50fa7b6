import { Type } from 'typebox';
import { flag, group, int, list, oneOf, orNull, text } from './kit.js';

/** The providers whose siteverify API Ward speaks (one protocol: a form POST of secret and response). */
export const CAPTCHA_PROVIDERS = ['recaptcha', 'captchafox', 'turnstile', 'hcaptcha'] as const;

/** Where a captcha may be asked: the Core SDK's calls that take `captcha_token`. */
export const CAPTCHA_POINTS = ['signup', 'password_login', 'passwordless_start', 'password_reset'] as const;

/**
 * What `applies_to` may list: the points above, and `hosted_pages`, which extends the listed points to
 * their hosted forms (login, signup, passwordless, forgot password) when a site key is set.
 */
export const CAPTCHA_PLACES = [...CAPTCHA_POINTS, 'hosted_pages'] as const;

/** The account's captcha: which provider verifies the SDK's `captcha_token`, and where one is asked. */
export const Captcha = group(
  {
    provider: oneOf(
      ['none', ...CAPTCHA_PROVIDERS] as const,
      'none',
      'The captcha provider; none: no captcha is asked.',
    ),
    site_key: orNull(
      text("The provider's public site key (the widget's; sent with the check to captchafox).", { max: 256 }),
    ),
    script_url: orNull(
      text("The widget's script on the hosted pages when not the provider's own (a proxy, or a stand-in in tests).", {
        max: 2048,
        check: 'endpoint',
      }),
    ),
    verify_url: orNull(
      text("The siteverify endpoint when not the provider's own (a proxy, or a local stand-in in tests).", {
        max: 2048,
        check: 'endpoint',
      }),
    ),
    applies_to: list(
      oneOf(CAPTCHA_PLACES, undefined, 'A call that asks a captcha, or hosted_pages: their hosted forms too.'),
      5,
      'Where a captcha is asked.',
      { value: [...CAPTCHA_PLACES], unique: true },
    ),
    min_score: Type.Number({
      minimum: 0,
      maximum: 1,
      default: 0.5,
      description: 'reCAPTCHA v3: the least score a token must have (tokens without a score pass on success).',
    }),
    timeout_ms: int(100, 10_000, 'How long the siteverify call may take, ms.', 3000),
    allow_when_unavailable: flag(
      false,
      'When the provider cannot be reached or answers badly: let the request through (true) or refuse it with 503 (false).',
    ),
  },
  'Captcha on signup, password login, passwordless start and password reset, through the Core SDK and the hosted forms (the secret: WARD_CAPTCHA_SECRET).',
);
