// The verification-code message templates: the code in every part, English and French with a
// fallback to English, HTML escaping and no remote resource, and an SMS that starts with the code
// and fits one GSM-7 segment whatever the app name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gsmSeptets, renderVerificationMessage, resolveLocale } from '../../src/integrations/messages.js';

const LONGEST_CODE = `${'A1B2-'.repeat(6)}N3`; // 32 characters, the most a code may have
const base = { purpose: 'stepup' as const, code: '482913', ttlSeconds: 300 };

describe('verification message templates', () => {
  it('puts the code and the lifetime in the subject, text, HTML and SMS', () => {
    const m = renderVerificationMessage(base);
    for (const part of [m.subject, m.text, m.html, m.sms]) assert.ok(part.includes('482913'), part);
    assert.match(m.text, /expires in 5 minutes/);
    assert.match(m.sms, /^482913 /);
    assert.match(m.sms, /5 min/);
    assert.match(m.html, /^<!DOCTYPE html>/);
    assert.match(m.html, /<html lang="en">/);
  });

  it('speaks French for fr, fr-FR, fr_CA and an Accept-Language value', () => {
    for (const locale of ['fr', 'fr-FR', 'FR-fr', 'fr_CA', 'fr-FR,fr;q=0.9,en;q=0.8']) {
      assert.equal(resolveLocale(locale), 'fr', locale);
      const m = renderVerificationMessage({ ...base, locale });
      assert.equal(m.subject, '482913 est votre code de vérification Ward');
      assert.match(m.text, /Il expire dans 5 minutes\./);
      assert.match(m.html, /<html lang="fr">/);
      assert.match(m.sms, /^482913 est votre code/);
    }
  });

  it('falls back to English for an unknown, empty or absent locale', () => {
    // German was an unknown locale before #34; Italian still is.
    for (const locale of [undefined, '', 'it-IT', 'xx', '*', 'french']) {
      assert.equal(resolveLocale(locale), 'en', String(locale));
      assert.equal(renderVerificationMessage({ ...base, locale }).subject, '482913 is your Ward verification code');
    }
  });

  it('words the step-up and the registration messages differently', () => {
    const stepup = renderVerificationMessage(base);
    const register = renderVerificationMessage({ ...base, purpose: 'register' });
    assert.match(stepup.text, /confirm it is you/);
    assert.match(register.text, /confirm this email address/);
    assert.match(register.sms, /confirm this phone number/);
    assert.notEqual(stepup.sms, register.sms);
  });

  it('escapes the app name in the HTML and keeps it on one line in the subject', () => {
    const appName = '<img src=x onerror="alert(1)"> & \'Co\'\r\nBcc: evil@example.com';
    const m = renderVerificationMessage({ ...base, appName });
    assert.ok(!m.html.includes('<img'), m.html);
    assert.ok(m.html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Co&#39;'), m.html);
    assert.ok(!/[\r\n]/.test(m.subject), m.subject);
    assert.ok(!m.text.includes('\r'));
  });

  it('has no remote resource, script or link in the HTML', () => {
    for (const purpose of ['stepup', 'register'] as const) {
      for (const locale of ['en', 'fr']) {
        const { html } = renderVerificationMessage({ ...base, purpose, locale });
        assert.doesNotMatch(html, /<(img|script|link|iframe|object|embed|style|a)\b/i);
        assert.doesNotMatch(html, /\b(src|href|background)\s*=/i);
        assert.doesNotMatch(html, /url\(|https?:|\/\//i);
      }
    }
  });

  it('keeps every SMS within one GSM-7 segment, starting with the code, even with a long or emoji app name', () => {
    const names = [undefined, 'Shop', 'A'.repeat(200), 'Café ☕ Store', 'Ünïcødé 🚀🚀🚀', '{brackets}[]^~|€'];
    for (const appName of names) {
      for (const locale of ['en', 'fr']) {
        for (const purpose of ['stepup', 'register'] as const) {
          for (const ttlSeconds of [30, 90, 300, 86_400]) {
            const { sms } = renderVerificationMessage({ purpose, code: LONGEST_CODE, ttlSeconds, locale, appName });
            const septets = gsmSeptets(sms);
            assert.ok(septets !== null, `not GSM-7: ${sms}`);
            assert.ok(septets <= 160, `${septets} septets: ${sms}`);
            assert.ok(sms.startsWith(`${LONGEST_CODE} `), sms);
          }
        }
      }
    }
  });

  it('counts GSM-7 septets, the extension table as two, and spots UCS-2 text', () => {
    assert.equal(gsmSeptets('abc é à'), 7);
    assert.equal(gsmSeptets('€[]'), 6);
    assert.equal(gsmSeptets('ç'), null);
    assert.equal(gsmSeptets('🚀'), null);
  });

  it('says the lifetime in the words of each locale', () => {
    const text = (ttlSeconds: number, locale: string) =>
      renderVerificationMessage({ ...base, ttlSeconds, locale }).text;
    assert.match(text(60, 'en'), /in 1 minute\./);
    assert.match(text(45, 'en'), /in 45 seconds\./);
    assert.match(text(90, 'fr'), /dans 90 secondes\./);
    assert.match(text(600, 'fr'), /dans 10 minutes\./);
    assert.match(text(86_400, 'fr'), /dans 24 heures\./);
  });

  it('refuses a missing or malformed code and a non-positive lifetime', () => {
    assert.throws(() => renderVerificationMessage({ ...base, code: '' }), TypeError);
    assert.throws(() => renderVerificationMessage({ ...base, code: '12 34' }), TypeError);
    assert.throws(() => renderVerificationMessage({ ...base, code: '<b>1</b>' }), TypeError);
    assert.throws(() => renderVerificationMessage({ ...base, ttlSeconds: 0 }), TypeError);
    assert.throws(() => renderVerificationMessage({ ...base, ttlSeconds: Number.NaN }), TypeError);
  });
});
