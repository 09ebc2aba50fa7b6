// The account self-service messages: English and French, the code and link in text and HTML with every
// value escaped, one-segment SMS, and an operator's templates from WARD_TEMPLATES_DIR.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ACCOUNT_MESSAGE_KINDS, renderAccountMessage } from '../../src/integrations/account-messages.js';
import { gsmSeptets } from '../../src/integrations/messages.js';

const link = 'https://id.example.com/identity/v1/verify-email/link?token=abc&x=<b>';

describe('account messages', () => {
  it('a verification email carries the link and the code, in text and in escaped HTML', () => {
    const m = renderAccountMessage({
      kind: 'verify_email',
      code: '123456',
      link,
      address: 'a@example.com',
      codeTtl: 900,
    });
    assert.match(m.subject, /Confirm your email address for Ward/);
    assert.ok(m.text.includes(link));
    assert.match(m.text, /123456/);
    assert.match(m.text, /15 minutes/);
    assert.ok(m.html.includes('x=&lt;b&gt;'));
    assert.ok(!m.html.includes('<b>'));
  });

  it('speaks French from the locale, and English for any other Ward does not speak', () => {
    const fr = renderAccountMessage({ kind: 'reset_password', code: '654321', link, locale: 'fr-FR', linkTtl: 3600 });
    assert.match(fr.subject, /Réinitialisez votre mot de passe/);
    assert.match(fr.text, /valable 60 minutes/);
    // German was "any other" before #34; Italian still is.
    const it = renderAccountMessage({ kind: 'reset_password', code: '654321', link, locale: 'it' });
    assert.match(it.subject, /Reset your Ward password/);
  });

  it('every kind renders in both languages, with an SMS of one GSM-7 segment', () => {
    for (const kind of ACCOUNT_MESSAGE_KINDS)
      for (const locale of ['en', 'fr']) {
        const m = renderAccountMessage({ kind, code: '123456', link, address: '+33******78', locale, at: 0 });
        assert.ok(m.subject && m.text && m.html && m.sms, `${kind} ${locale}`);
        const septets = gsmSeptets(m.sms);
        assert.ok(septets !== null && septets <= 160, `${kind} ${locale}: ${m.sms}`);
      }
  });

  it("an operator's templates replace the texts, values escaped in HTML", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-templates-'));
    writeFileSync(join(dir, 'verify_email.en.subject.txt'), 'Welcome to {{app}}\n');
    writeFileSync(join(dir, 'verify_email.en.html'), '<p>Open <a href="{{link}}">this</a>, or type {{code}}</p>');
    const m = renderAccountMessage({ kind: 'verify_email', code: '123456', link, appName: 'Shop' }, dir);
    assert.equal(m.subject, 'Welcome to Shop');
    assert.equal(
      m.html,
      `<p>Open <a href="${link.replace('&', '&amp;').replace('<b>', '&lt;b&gt;')}">this</a>, or type 123456</p>`,
    );
    // What the folder does not replace stays Ward's.
    assert.ok(m.text.includes(link));
    const fr = renderAccountMessage({ kind: 'verify_email', code: '123456', link, locale: 'fr' }, dir);
    assert.match(fr.subject, /Confirmez/);
  });
});
