// The language files: every key of English exists, non-empty, in every language (at run time too, not
// only in the type check), with the same placeholders; every SMS stays within one GSM-7 segment; and
// the one rule that picks a request's language, source by source.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATALOG } from '../../src/errors/catalog.js';
import { ACCOUNT_MESSAGE_KINDS, renderAccountMessage } from '../../src/integrations/account-messages.js';
import { renderLockNotice } from '../../src/integrations/lock-notice.js';
import { gsmSeptets, renderVerificationMessage } from '../../src/integrations/messages.js';
import { renderNotice } from '../../src/integrations/notices.js';
import { acceptLanguageLanguage, chooseLanguage, uiLocalesLanguage } from '../../src/texts/choose-language.js';
import { LANGUAGES, textsIn } from '../../src/texts/texts.js';

/** Every leaf of a texts tree, by path: strings as they are, functions called with marked values. */
function leaves(node: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(path, node);
  else if (typeof node === 'function') {
    const marks = Array.from({ length: node.length }, (_, i) => `<${i}>`);
    // Texts of account messages take one object of values: mark each of them.
    const values = new Proxy({}, { get: (_, k) => (typeof k === 'string' ? `<${k}>` : undefined) });
    const text = /^\(?v\)?\s*=>/.test(node.toString()) ? node(values) : node(...marks);
    out.set(path, String(text));
  } else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) leaves(v, path ? `${path}.${k}` : k, out);
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/<\w+>/g)].map((m) => m[0]).sort();

/**
 * Texts whose value is itself English (a validator's detail, "must be at most 40 characters"): the
 * English text shows it, the others say the value is invalid without quoting English at the user.
 */
const ENGLISH_ONLY_VALUES = new Set(['pages.completeProfile.invalid']);

describe('the language files', () => {
  const english = leaves(textsIn('en'));

  it('are Ward’s four languages, English the fallback', () => {
    assert.deepEqual([...LANGUAGES], ['en', 'fr', 'de', 'es']);
    assert.equal(textsIn('it'), textsIn('en'));
  });

  for (const language of LANGUAGES) {
    it(`${language}: every English key, non-empty, with the same values shown`, () => {
      const texts = leaves(textsIn(language));
      assert.deepEqual([...texts.keys()].sort(), [...english.keys()].sort());
      for (const [path, text] of texts) {
        const en = english.get(path)!;
        // The SMS-only and empty-by-design texts (a phone message has no email paragraphs).
        if (en === '') continue;
        assert.ok(text.trim().length > 0, `${language} ${path} is empty`);
        if (language !== 'en' && ENGLISH_ONLY_VALUES.has(path)) continue;
        assert.deepEqual(placeholders(text), placeholders(en), `${language} ${path}: ${text}`);
      }
    });

    it(`${language}: a message for every error of the catalog`, () => {
      for (const name of Object.keys(CATALOG))
        assert.ok(textsIn(language).errors[name as keyof typeof CATALOG]?.trim(), `${language} ${name}`);
    });

    it(`${language}: every SMS fits one GSM-7 segment`, () => {
      const fits = (sms: string, what: string) => {
        const n = gsmSeptets(sms);
        assert.ok(n !== null && n <= 160, `${language} ${what}: ${sms}`);
      };
      for (const kind of ACCOUNT_MESSAGE_KINDS) {
        const m = renderAccountMessage({ kind, code: '123456', address: '+33******78', locale: language, at: 0 });
        fits(m.sms, kind);
      }
      for (const purpose of ['stepup', 'register'] as const)
        fits(renderVerificationMessage({ purpose, code: '123456', ttlSeconds: 600, locale: language }).sms, purpose);
      for (const change of ['factor_added', 'factor_removed'] as const)
        for (const factor of ['email', 'sms', 'passkey'] as const)
          fits(
            renderNotice({ change, factor, masked: 'a***@example.com', at: 0, locale: language }).sms,
            `${change} ${factor}`,
          );
      fits(renderLockNotice({ at: 0, until: 3_600_000, locale: language }).sms, 'lock');
    });
  }

  it('German and Spanish emails are written in their language', () => {
    const de = renderVerificationMessage({ purpose: 'stepup', code: '482913', ttlSeconds: 300, locale: 'de-AT' });
    assert.equal(de.subject, '482913 ist Ihr Bestätigungscode für Ward');
    assert.match(de.text, /Er läuft in 5 Minuten ab\./);
    assert.match(de.html, /<html lang="de">/);
    const es = renderAccountMessage({
      kind: 'reset_password',
      code: '1',
      link: 'https://x',
      locale: 'es',
      linkTtl: 3600,
    });
    assert.match(es.subject, /Restablezca su contraseña de Ward/);
    assert.match(es.text, /válido durante 60 minutos/);
  });
});

describe('the language rule', () => {
  it('takes ui_locales first, then the stored locale, then Accept-Language, then the account default', () => {
    const all = { uiLocales: 'fr', userLocale: 'de-DE', acceptLanguage: 'es' };
    assert.equal(chooseLanguage(all, 'en'), 'fr');
    assert.equal(chooseLanguage({ ...all, uiLocales: undefined }, 'en'), 'de');
    assert.equal(chooseLanguage({ acceptLanguage: 'es' }, 'en'), 'es');
    assert.equal(chooseLanguage({}, 'en'), 'en');
    assert.equal(chooseLanguage({}, 'de'), 'de');
    assert.equal(chooseLanguage({ acceptLanguage: 'it' }, 'fr'), 'fr');
  });

  it('skips a source in a language Ward does not speak', () => {
    assert.equal(chooseLanguage({ uiLocales: 'it ja', userLocale: 'pt-BR', acceptLanguage: 'de' }, 'en'), 'de');
    assert.equal(chooseLanguage({ uiLocales: 'it es', acceptLanguage: 'fr' }, 'en'), 'es');
    assert.equal(chooseLanguage({ userLocale: 'xx', acceptLanguage: 'zz' }, 'es'), 'es');
  });

  it('reads ui_locales in order and Accept-Language by weight', () => {
    assert.equal(uiLocalesLanguage('de-CH fr-CA'), 'de');
    assert.equal(uiLocalesLanguage(''), null);
    assert.equal(acceptLanguageLanguage('fr;q=0.4, es;q=0.8, de;q=0.6'), 'es');
    assert.equal(acceptLanguageLanguage('de, fr'), 'de');
    assert.equal(acceptLanguageLanguage('es;q=0'), null);
    assert.equal(acceptLanguageLanguage('ES_mx'), 'es');
    assert.equal(acceptLanguageLanguage(undefined), null);
  });
});
