// The error catalog is the one place message keys live: no key literal elsewhere in src/, every key
// Ward answered before the catalog still exists with its exact value, every entry speaks English and
// French, and only /oauth/authorize entries say whether they may be redirected.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { CATALOG, type ErrorName } from '../../src/errors/catalog.js';
import { languageOf, WardError } from '../../src/errors/ward-error.js';
import { textsIn } from '../../src/texts/texts.js';

// The keys of the Core SDK contract and Ward's tests before the catalog: renaming one breaks a client.
const KEYS_BEFORE_THE_CATALOG = [
  'error.client.exists',
  'error.client.hasOwnKeys',
  'error.client.invalid',
  'error.client.notFound',
  'error.client.notRs256',
  'error.client.public',
  'error.delivery.failed',
  'error.email.alreadyInUse',
  'error.forbidden',
  'error.invalidClient',
  'error.invalidCodeVerifier',
  'error.invalidEmailOrPassword',
  'error.invalidGrant',
  'error.invalidParameter',
  'error.invalidRequest',
  'error.invalidScope',
  'error.invalidToken',
  'error.invalidVerificationCode',
  'error.key.alreadyRevoked',
  'error.management.forbidden',
  'error.methodNotAllowed',
  'error.mfa.codesDisabled',
  'error.mfa.invalidStepUp',
  'error.mfa.noCredential',
  'error.mfa.noEmail',
  'error.mfa.stepUpRequired',
  'error.missingParameter',
  'error.notFound',
  'error.password.tooShort',
  'error.phoneNumber.alreadyInUse',
  'error.rateLimitReached',
  'error.requestHeadersTooLarge',
  'error.requestTimeout',
  'error.serviceUnavailable',
  'error.settings.invalid',
  'error.socialProvider.exists',
  'error.socialProvider.invalid',
  'error.stepUp.origin',
  'error.unauthorizedClient',
  'error.unexpected',
  'error.unsupportedGrantType',
  'error.unsupportedMediaType',
  'error.user.ownRole',
];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('the error catalog', () => {
  it('holds every message key: no key literal in src/ outside src/errors', () => {
    // Quoted by any of the three quotes: a template literal is a string literal too.
    const found: string[] = [];
    for (const file of sources('src')) {
      if (relative('src', file).startsWith('errors')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['"`](error\.[\w.]+)['"`]/g)) found.push(`${file}: ${m[1]}`);
    }
    assert.deepEqual(found, []);
  });

  it('keeps every key Ward answered before, with its exact value', () => {
    const keys = new Set(Object.values(CATALOG).map((e) => e.key));
    assert.deepEqual(
      KEYS_BEFORE_THE_CATALOG.filter((k) => !keys.has(k)),
      [],
    );
  });

  it('knows every key a test expects', () => {
    const keys = new Set(Object.values(CATALOG).map((e) => e.key));
    const expected = new Set<string>();
    for (const file of sources('test')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['"`](error\.[a-zA-Z][\w.]*)['"`]/g)) expected.add(m[1]!);
    }
    assert.ok(expected.size > 10, 'the tests were read');
    assert.deepEqual(
      [...expected].filter((k) => !keys.has(k)),
      [],
    );
  });

  it('gives each entry an error status, an OAuth code, a key and both languages', () => {
    for (const [name, e] of Object.entries(CATALOG)) {
      assert.ok(e.status >= 400 && e.status < 600, name);
      assert.match(e.error, /^[a-z_]+$/, name);
      assert.match(e.key, /^error\.[\w.]+$/, name);
      const [en, fr] = [textsIn('en').errors[name as ErrorName], textsIn('fr').errors[name as ErrorName]];
      assert.ok(en.length > 0 && fr.length > 0 && en !== fr, name);
      // Only the authorization endpoint's errors decide about redirecting to the client.
      assert.equal('redirectable' in e, name.startsWith('authorize'), name);
    }
  });
});

describe('a WardError', () => {
  it('answers the contract body: the English user message is the description, the French one the catalog text', () => {
    const e = new WardError('missingParameter', {
      description: 'email is required',
      details: [{ field: 'email', message: 'email is required', code: 'missing' }],
    });
    assert.deepEqual(e.body(), {
      error: 'invalid_request',
      error_description: 'email is required',
      error_user_msg: 'email is required',
      error_message_key: 'error.missingParameter',
      error_details: [{ field: 'email', message: 'email is required', code: 'missing' }],
    });
    assert.equal(e.body('fr').error_user_msg, textsIn('fr').errors.missingParameter);
    assert.equal(e.body('fr').error_description, 'email is required');
    assert.equal(e.status, 400);
    assert.equal(new WardError('invalidToken').description, textsIn('en').errors.invalidToken);
  });

  it('reads the language from Accept-Language by weight, English by default', () => {
    assert.equal(languageOf(undefined), 'en');
    assert.equal(languageOf(''), 'en');
    assert.equal(languageOf('fr'), 'fr');
    assert.equal(languageOf('fr-FR,fr;q=0.9,en;q=0.8'), 'fr');
    // A language Ward does not speak is skipped (German and Spanish it speaks since #34).
    assert.equal(languageOf('it-IT,it;q=0.9,fr;q=0.5,en;q=0.4'), 'fr');
    assert.equal(languageOf('de-DE,de;q=0.9,fr;q=0.5,en;q=0.4'), 'de');
    assert.equal(languageOf('en-GB,fr;q=0.9'), 'en');
    assert.equal(languageOf('fr;q=0.2,en;q=0.8'), 'en');
    assert.equal(languageOf('fr;q=0'), 'en');
    assert.equal(languageOf('it, nl'), 'en');
    assert.equal(languageOf('es-MX, de'), 'es');
    assert.equal(languageOf('FR_ca'), 'fr');
  });
});
