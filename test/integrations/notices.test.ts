// The security notice of a factor change or a passkey change (integrations/notices.ts) and who receives it
// (stepup/factor-notices.ts): masked destination, UTC time, English and French, escaped HTML,
// one GSM-7 SMS segment; recipients are the account's existing channels, deduplicated.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noticeRecipients } from '../../src/stepup/factor-notices.js';
import { gsmSeptets } from '../../src/integrations/messages.js';
import { renderNotice } from '../../src/integrations/notices.js';
import type { CredentialRow } from '../../src/storage/sql/mfa.js';
import type { User } from '../../src/storage/sql/users.js';

const AT = Date.UTC(2026, 10, 21, 14, 3, 59);

describe('security notices', () => {
  it('says what changed, when (UTC) and what to do, in English and French', () => {
    const en = renderNotice({
      change: 'factor_removed',
      factor: 'sms',
      masked: '+33*******22',
      at: AT,
      appName: 'Acme',
    });
    assert.equal(en.subject, 'A second factor was removed from your Acme account');
    assert.match(en.text, /^On 2026-11-21 14:03 UTC, the phone number \+33\*{7}22 was removed/);
    assert.match(en.text, /change your password now/);
    const fr = renderNotice({
      change: 'factor_added',
      factor: 'email',
      masked: 'a***@example.com',
      at: AT,
      locale: 'fr-CA',
    });
    assert.match(fr.subject, /^Un second facteur a été ajouté à votre compte Ward$/);
    assert.match(fr.text, /Le 2026-11-21 14:03 UTC, l'adresse e-mail a\*\*\*@example\.com/);
    assert.ok(fr.html.includes('<html lang="fr">'));
  });

  it('escapes every value in the HTML and keeps the SMS to one GSM-7 segment', () => {
    const n = renderNotice({
      change: 'factor_added',
      factor: 'sms',
      masked: '+33*<b>*22',
      at: AT,
      appName: '<script>x</script> & "Co"',
    });
    assert.ok(!n.html.includes('<script>') && !n.html.includes('<b>'));
    assert.ok(n.html.includes('&lt;script&gt;') && n.html.includes('&amp;'));
    for (const appName of ['Acme', 'A'.repeat(40), 'Société Générale', '東京銀行']) {
      for (const change of ['factor_added', 'factor_removed'] as const) {
        const sms = renderNotice({ change, factor: 'sms', masked: '+33*******22', at: AT, appName, locale: 'fr' }).sms;
        const septets = gsmSeptets(sms);
        assert.ok(septets !== null && septets <= 160, `${appName}: ${sms}`);
      }
    }
    assert.match(
      renderNotice({ change: 'factor_added', factor: 'sms', masked: '+33*******22', at: AT, appName: '東京銀行' }).sms,
      /^The phone number/,
    );
  });

  it('a passkey: its own words, never named, one GSM-7 segment (issue 33)', () => {
    const en = renderNotice({ change: 'factor_added', factor: 'passkey', masked: '', at: AT, appName: 'Acme' });
    assert.equal(en.subject, 'A passkey was added to your Acme account');
    assert.match(en.text, /^On 2026-11-21 14:03 UTC, a passkey was added to your Acme account/);
    const fr = renderNotice({ change: 'factor_removed', factor: 'passkey', masked: '', at: AT, locale: 'fr' });
    assert.match(fr.subject, /^Une clé d'accès a été retirée de votre compte Ward$/);
    for (const change of ['factor_added', 'factor_removed'] as const) {
      const septets = gsmSeptets(
        renderNotice({ change, factor: 'passkey', masked: '', at: AT, appName: 'A'.repeat(40) }).sms,
      );
      assert.ok(septets !== null && septets <= 160);
    }
  });

  it('refuses what it does not know', () => {
    assert.throws(
      () => renderNotice({ change: 'factor_renamed' as 'factor_added', factor: 'sms', masked: 'x', at: AT }),
      TypeError,
    );
    assert.throws(
      () => renderNotice({ change: 'factor_added', factor: 'fax' as 'sms', masked: 'x', at: AT }),
      TypeError,
    );
    assert.throws(() => renderNotice({ change: 'factor_added', factor: 'sms', masked: 'x', at: NaN }), TypeError);
  });
});

describe('notice recipients', () => {
  const user = {
    id: 'u',
    email: 'Alice@Example.com',
    phone_number: '+33600000001',
    phone_number_verified: false,
  } as User;
  const factor = (type: 'email' | 'sms', destination: string, verified = true) =>
    ({
      id: destination,
      user_id: 'u',
      type,
      destination,
      friendly_name: null,
      verified_at: verified ? 1 : null,
      created_at: 1,
    }) as CredentialRow;

  it('a new factor: the account email and the verified factors before it, not the new one', () => {
    const to = noticeRecipients({
      user,
      change: 'factor_added',
      factor: { type: 'sms', destination: '+33600000009' },
      before: [
        factor('email', 'alice@example.com'),
        factor('sms', '+33600000002'),
        factor('sms', '+33600000003', false),
      ],
      at: AT,
    });
    assert.deepEqual(to, [
      { channel: 'email', to: 'Alice@Example.com' },
      { channel: 'sms', to: '+33600000002' },
    ]);
  });

  it('a passkey is no channel: every channel of the account is told', () => {
    for (const change of ['factor_added', 'factor_removed'] as const) {
      const to = noticeRecipients({
        user,
        change,
        factor: { type: 'passkey' },
        before: [factor('email', 'alice@example.com'), factor('sms', '+33600000002')],
        at: AT,
      });
      assert.deepEqual(to, [
        { channel: 'email', to: 'Alice@Example.com' },
        { channel: 'sms', to: '+33600000002' },
      ]);
    }
  });

  it('a removed factor is told too; an unverified account phone is not a channel', () => {
    const to = noticeRecipients({
      user,
      change: 'factor_removed',
      factor: { type: 'sms', destination: '+33600000002' },
      before: [factor('sms', '+33600000002')],
      at: AT,
    });
    assert.deepEqual(to, [
      { channel: 'email', to: 'Alice@Example.com' },
      { channel: 'sms', to: '+33600000002' },
    ]);
    const verifiedPhone = { ...user, email: null, phone_number_verified: true };
    assert.deepEqual(
      noticeRecipients({
        user: verifiedPhone,
        change: 'factor_added',
        factor: { type: 'email', destination: 'new@example.com' },
        before: [],
        at: AT,
      }),
      [{ channel: 'sms', to: '+33600000001' }],
    );
  });
});
