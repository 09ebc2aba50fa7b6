// The password policy (src/accounts/password-policy.ts): length, zxcvbn score with the common, English
// and French dictionaries, the user's email and name, and the most common passwords, each rule on its
// own switch of the account settings, the first broken rule named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  enforcePasswordPolicy,
  isCommonPassword,
  type PasswordOwner,
  type PasswordPolicy,
  passwordStrength,
  policyRefusal,
} from '../../src/accounts/password-policy.js';
import { DEFAULT_ACCOUNT } from '../../src/config/defaults.js';
import { WardError } from '../../src/errors/ward-error.js';
import { createOutbound } from '../../src/lib/outbound/client.js';

const DEFAULTS: PasswordPolicy = DEFAULT_ACCOUNT;
/** The default policy has no breach-check URL: the guarded client (allowing nothing) is never asked. */
const NO_BREACH_CHECK = { outbound: createOutbound({ allow: [] }) };
const ADA = { email: 'ada.lovelace@example.com', given_name: 'Ada', family_name: 'Lovelace' };
const rule = async (policy: PasswordPolicy, password: string, owner: PasswordOwner = ADA) =>
  (await policyRefusal(policy, password, owner))?.code;

describe('password policy', () => {
  it('has defaults a real site wants: 8 characters, strength 2, no user info, no common password', async () => {
    assert.equal(DEFAULTS.password_min_length, 8);
    assert.equal(DEFAULTS.password_min_strength, 2);
    assert.equal(DEFAULTS.password_refuse_user_info, true);
    assert.equal(DEFAULTS.password_refuse_common, true);
    assert.equal(await rule(DEFAULTS, 'correct horse battery'), undefined);
  });

  it('refuses a password shorter than the minimum length, or longer than 256', async () => {
    assert.equal(await rule(DEFAULTS, 'x7#Qp!'), 'too_short');
    assert.equal(await rule({ ...DEFAULTS, password_min_length: 30 }, 'correct horse battery'), 'too_short');
    assert.equal(await rule(DEFAULTS, 'k'.repeat(257)), 'too_short');
    assert.equal(await rule({ ...DEFAULTS, password_min_length: 6, password_min_strength: 0 }, 'x7#Qp!'), undefined);
  });

  it('refuses a score under the minimum strength, and accepts it when the rule is 0', async () => {
    assert.equal(await passwordStrength('aaaaaaaaaa'), 0);
    assert.equal(await rule(DEFAULTS, 'aaaaaaaaaa'), 'too_weak');
    assert.equal(await rule({ ...DEFAULTS, password_min_strength: 0 }, 'aaaaaaaaaa'), undefined);
    assert.equal(await passwordStrength('correct horse battery'), 4);
    const strong = 'kqzvbnwxle';
    assert.equal(await passwordStrength(strong), 3);
    assert.equal(await rule({ ...DEFAULTS, password_min_strength: 3 }, strong), undefined);
    assert.equal(await rule({ ...DEFAULTS, password_min_strength: 4 }, strong), 'too_weak');
  });

  it('refuses "password" and the other most common passwords, whatever the strength rule', async () => {
    const noScore = { ...DEFAULTS, password_min_strength: 0 as const };
    assert.equal(await isCommonPassword('password'), true);
    assert.equal(await isCommonPassword('PassWord'), true);
    assert.equal(await rule(noScore, 'password'), 'too_common');
    assert.equal(await rule(noScore, '12345678'), 'too_common');
    assert.equal(await rule(noScore, 'qwertyuiop'), 'too_common');
    assert.equal(await rule(DEFAULTS, 'password'), 'too_common');
    // With the rule off only the score speaks, and "password" scores 0.
    assert.equal(await rule({ ...noScore, password_refuse_common: false }, 'password'), undefined);
    assert.equal(await rule({ ...DEFAULTS, password_refuse_common: false }, 'password'), 'too_weak');
  });

  it("refuses a password that contains the user's email, its local part, or name, in any case", async () => {
    const strong = 'purple-tractor-';
    assert.equal(await rule(DEFAULTS, `${strong}ADA.LOVELACE@example.com`), 'contains_user_info');
    assert.equal(await rule(DEFAULTS, `${strong}ada.lovelace`), 'contains_user_info');
    assert.equal(await rule(DEFAULTS, `${strong}Lovelace`), 'contains_user_info');
    assert.equal(await rule(DEFAULTS, `${strong}ada`), 'contains_user_info');
    assert.equal(
      await rule(DEFAULTS, `${strong}ada`, { email: 'x@example.com', given_name: 'Al', family_name: null }),
      undefined,
    );
    assert.equal(await rule({ ...DEFAULTS, password_refuse_user_info: false }, `${strong}Lovelace`), undefined);
  });

  it('knows French words: a French dictionary word is weak', async () => {
    for (const word of ['parapluie', 'citrouille', 'pamplemousse', 'hirondelle']) {
      assert.ok((await passwordStrength(word)) <= 1, `${word}: ${await passwordStrength(word)}`);
      assert.equal(await rule(DEFAULTS, word), 'too_weak', word);
    }
    // The same length of letters that make no word is stronger.
    assert.ok((await passwordStrength('pqmzrvxkwt')) >= 2);
  });

  it('throws the catalog error naming the broken rule in error_details', async () => {
    await assert.rejects(
      () => enforcePasswordPolicy(DEFAULTS, 'password', ADA, 'data.password', NO_BREACH_CHECK),
      (e: unknown) =>
        e instanceof WardError &&
        e.id === 'passwordTooWeak' &&
        e.entry.key === 'error.password.tooWeak' &&
        e.details?.[0]?.field === 'data.password' &&
        e.details[0].code === 'too_common',
    );
    await assert.rejects(
      () => enforcePasswordPolicy(DEFAULTS, 'short', ADA, 'password', NO_BREACH_CHECK),
      (e: unknown) => e instanceof WardError && e.id === 'passwordTooShort' && e.details?.[0]?.code === 'too_short',
    );
  });

  it('scores only the first 64 characters (past them the estimator would crawl on a long l33t string)', async () => {
    assert.equal(await passwordStrength('Zq!8#kW@p-vT3'), 4);
    assert.equal(await passwordStrength(`${'a'.repeat(64)}Zq!8#kW@p-vT3`), 0);
  });
});
