import { createHash } from 'node:crypto';
import type { AccountSettings } from '../config/types.js';
import type { FieldError } from '../errors/ward-error.js';
import { WardError } from '../errors/ward-error.js';
import type { Outbound } from '../lib/outbound/client.js';
import { createStrengthEstimator, type StrengthScore } from './password-strength.js';

/** The account settings that make the password policy. */
export type PasswordPolicy = Pick<
  AccountSettings,
  | 'password_min_length'
  | 'password_min_strength'
  | 'password_refuse_user_info'
  | 'password_refuse_common'
  | 'password_uppercase_characters'
  | 'password_lowercase_characters'
  | 'password_digit_characters'
  | 'password_special_characters'
  | 'password_breach_check_url'
  | 'password_breach_check_timeout_ms'
>;

/** What Ward knows of the person choosing the password. */
export interface PasswordOwner {
  email?: string | null;
  given_name?: string | null;
  family_name?: string | null;
}

export type { StrengthScore };

/** The longest password Ward accepts. */
export const PASSWORD_MAX_LENGTH = 256;
/**
 * Characters zxcvbn reads: past 64 a password is strong anyway, and its matchers grow fast with the
 * length (a 256-character l33t string took seconds). Fewer l33t substitutions for the same reason.
 */
const SCORED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 8;
/** A name or email part shorter than this is not looked for in the password ("Al" is in too many words). */
const MIN_USER_INFO_LENGTH = 3;

/** zxcvbn, on a thread of its own (password-strength.ts), started at the first check or `warmPasswordPolicy`. */
const estimator = createStrengthEstimator({
  maxLength: SCORED_LENGTH,
  l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
});

/** How long the estimator's thread may sit unused before it stops (WARD_PASSWORD_STRENGTH_IDLE). */
export function setPasswordStrengthIdle(ms: number): void {
  estimator.setIdle(ms);
}

/** The file of the estimator's dictionaries ranked ahead (speed-up `prepared_dictionaries`), or null to rank the word lists. */
export function usePreparedDictionaries(prepared: string | null): void {
  estimator.usePrepared(prepared);
}

/** Whether the estimator's thread is up, and how many have started and exited. */
export const passwordStrengthThreads = () => estimator.threads();

/**
 * Gets the estimator ready for a check that will come (its thread is started, its dictionaries
 * loaded) when this policy asks for one; a failure here is the check's to report.
 */
export function warmPasswordPolicy(policy: PasswordPolicy): void {
  if (policy.password_min_strength > 0) estimator.warm('score').catch(() => undefined);
  if (policy.password_refuse_common) estimator.warm('common').catch(() => undefined);
}

/** The pieces of the owner's identity a password must not contain, lower-cased. */
function userInfo(owner: PasswordOwner): string[] {
  const email = owner.email?.toLowerCase() ?? '';
  const local = email.split('@')[0] ?? '';
  return [email, local, owner.given_name ?? '', owner.family_name ?? '']
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length >= MIN_USER_INFO_LENGTH);
}

/** zxcvbn's score, 0 (guessable) to 4 (very unguessable), with the owner's identity as known words. */
export function passwordStrength(password: string, owner: PasswordOwner = {}): Promise<StrengthScore> {
  return estimator.score(password.slice(0, SCORED_LENGTH), userInfo(owner));
}

/** Whether the password is one of zxcvbn's most common passwords (the whole password, any case). */
export function isCommonPassword(password: string): Promise<boolean> {
  return estimator.isCommon(password);
}

const refusal = (field: string, code: FieldError['code'], message: string): FieldError => ({ field, message, code });

/** The character classes a policy may count (Unicode categories: any script's letters and digits count). */
const CLASSES = [
  ['password_uppercase_characters', /\p{Lu}/gu, 'upper-case letter'],
  ['password_lowercase_characters', /\p{Ll}/gu, 'lower-case letter'],
  ['password_digit_characters', /\p{Nd}/gu, 'digit'],
  ['password_special_characters', /[^\p{L}\p{N}\s]/gu, 'special character'],
] as const;

/** The first character-class rule the password breaks (too few of a class), or null. */
function characterClassRefusal(policy: PasswordPolicy, password: string, field: string): FieldError | null {
  for (const [setting, pattern, name] of CLASSES) {
    const least = policy[setting];
    if (least > 0 && (password.match(pattern)?.length ?? 0) < least)
      return refusal(field, 'missing_characters', `must contain at least ${least} ${name}${least > 1 ? 's' : ''}`);
  }
  return null;
}

/** The first rule of the policy the password breaks, or null when it passes. */
export async function policyRefusal(
  policy: PasswordPolicy,
  password: string,
  owner: PasswordOwner,
  field = 'password',
): Promise<FieldError | null> {
  const min = policy.password_min_length;
  if (password.length < min || password.length > PASSWORD_MAX_LENGTH)
    return refusal(field, 'too_short', `must be ${min} to ${PASSWORD_MAX_LENGTH} characters long`);
  if (policy.password_refuse_common && (await isCommonPassword(password)))
    return refusal(field, 'too_common', 'is one of the most common passwords');
  const classes = characterClassRefusal(policy, password, field);
  if (classes) return classes;
  const lower = password.toLowerCase();
  if (policy.password_refuse_user_info && userInfo(owner).some((part) => lower.includes(part)))
    return refusal(field, 'contains_user_info', 'must not contain your email address or your name');
  const score = policy.password_min_strength > 0 ? await passwordStrength(password, owner) : 4;
  if (score < policy.password_min_strength)
    return refusal(
      field,
      'too_weak',
      `is too easy to guess (strength ${score}, at least ${policy.password_min_strength})`,
    );
  return null;
}

/**
 * Whether the password is in a breached-password corpus, asked through the k-anonymity range API (the
 * Have I Been Pwned protocol): only the first 5 hex characters of its SHA-1 leave Ward, the service
 * answers every `SUFFIX:COUNT` of that range (padded with count-0 decoys, which do not count), and the
 * match is made here. null: the service did not answer in time or answered badly.
 */
export async function isBreachedPassword(
  outbound: Pick<Outbound, 'fetch'>,
  url: string,
  timeoutMs: number,
  password: string,
): Promise<boolean | null> {
  const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  try {
    // The guarded client (lib/outbound/): no redirect, no refused address (a refusal is "did not answer").
    const res = await outbound.fetch(`${url}${hash.slice(0, 5)}`, {
      headers: { 'Add-Padding': 'true', 'User-Agent': 'Ward' },
      timeoutMs,
      maxBytes: 4 * 1024 * 1024,
    });
    if (!res.ok) return null;
    const suffix = hash.slice(5);
    for (const line of (await res.text()).split('\n')) {
      const [s, count] = line.trim().split(':');
      if (s?.toUpperCase() === suffix && Number(count) > 0) return true;
    }
    return false;
  } catch {
    return null;
  }
}

/** How the breached-password check is asked: the guarded client, and who hears that it did not answer. */
export interface BreachCheck {
  outbound: Pick<Outbound, 'fetch'>;
  onUnavailable?: () => void;
}

/**
 * Throws the catalog error naming the broken rule when the password does not meet the policy. The
 * breached-password check (when a URL is set) fails open: a service that is down or slow, or on a
 * refused address, never blocks the password (`breach.onUnavailable` hears of it).
 */
export async function enforcePasswordPolicy(
  policy: PasswordPolicy,
  password: string,
  owner: PasswordOwner,
  field: string,
  breach: BreachCheck,
): Promise<void> {
  let broken = await policyRefusal(policy, password, owner, field);
  if (!broken && policy.password_breach_check_url) {
    const breached = await isBreachedPassword(
      breach.outbound,
      policy.password_breach_check_url,
      policy.password_breach_check_timeout_ms,
      password,
    );
    if (breached === null) breach.onUnavailable?.();
    if (breached) broken = refusal(field, 'breached', 'appears in a list of breached passwords');
  }
  if (!broken) return;
  throw new WardError(broken.code === 'too_short' ? 'passwordTooShort' : 'passwordTooWeak', {
    description: `The password ${broken.message}`,
    details: [broken],
  });
}

/** The policy as `/identity/v1/config` lists it (`password_policy`). */
export function publicPasswordPolicy(policy: PasswordPolicy) {
  return {
    min_length: policy.password_min_length,
    min_strength: policy.password_min_strength,
    refuse_user_info: policy.password_refuse_user_info,
    refuse_common: policy.password_refuse_common,
    breach_check: policy.password_breach_check_url !== null,
    // The Core SDK's optional character-class rules, listed only when the account sets them.
    ...(policy.password_uppercase_characters ? { uppercase_characters: policy.password_uppercase_characters } : {}),
    ...(policy.password_lowercase_characters ? { lowercase_characters: policy.password_lowercase_characters } : {}),
    ...(policy.password_digit_characters ? { digit_characters: policy.password_digit_characters } : {}),
    ...(policy.password_special_characters ? { special_characters: policy.password_special_characters } : {}),
    // A password change with a Bearer token asks the old password when the user has one.
    allow_update_with_access_token_only: false,
  };
}
