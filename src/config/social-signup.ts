import { callbackUrlProblem } from '../lib/url.js';
import type { SocialSignupSettings } from './types.js';

const KEYS = ['email_required', 'completion_url'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The account's `social_signup` setting: whether a new social user needs an email, and the app's
 * completion page. The page must be a web page (https, or http on loopback) without a fragment, as a
 * callback URL; Ward uses it only for a client that lists it among its allowed_callback_urls.
 */
export function validateSocialSignup(
  p: { add(key: string, message: string): void },
  raw: unknown,
  base: SocialSignupSettings,
): SocialSignupSettings {
  if (raw === undefined) return structuredClone(base);
  const key = 'account.social_signup';
  if (!isObject(raw)) {
    p.add(key, 'must be an object {email_required, completion_url}');
    return structuredClone(base);
  }
  for (const k of Object.keys(raw))
    if (!KEYS.includes(k)) p.add(`${key}.${k}`, `unknown key (allowed: ${KEYS.join(', ')})`);
  const out = structuredClone(base);
  if (raw.email_required !== undefined) {
    if (typeof raw.email_required !== 'boolean') p.add(`${key}.email_required`, 'must be true or false');
    else out.email_required = raw.email_required;
  }
  const url = raw.completion_url;
  if (url === null) out.completion_url = null;
  else if (url !== undefined) {
    const problem = typeof url === 'string' ? callbackUrlProblem(url) : 'must be a URL or null';
    const web = typeof url === 'string' && !problem && /^https?:$/.test(new URL(url).protocol);
    if (problem) p.add(`${key}.completion_url`, problem);
    else if (!web) p.add(`${key}.completion_url`, 'must be a web page: https (http only for loopback)');
    else out.completion_url = url as string;
  }
  return out;
}
