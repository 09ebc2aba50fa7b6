// The page of the consents to accept again (interaction/pages/reconsent.ts), rendered directly: every
// value escaped (the consents' titles and descriptions, the client's name, who is signed in, the form's
// handle and token), its texts in every language, the refusal of a required one said in words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconsentPage } from '../../src/interaction/pages/reconsent.js';
import { renderPage } from '../../src/lib/html.js';
import { LANGUAGES } from '../../src/texts/language.js';
import { textsIn } from '../../src/texts/texts.js';

const HOSTILE = `"'><x-evil onload=alert(1)>&amp;</main><script>alert(2)</script>`;

const page = (v: string, language: (typeof LANGUAGES)[number] = 'en', refused?: string[]) =>
  reconsentPage(refused ? 403 : 200, {
    clientName: v,
    who: v,
    consents: [
      { key: 'terms', title: v, description: v, required: true },
      { key: 'news', title: `${v} news`, description: '', required: false },
    ],
    checked: new Set(['news']),
    refused,
    interaction: v,
    csrf: v,
    target: 'https://app.example/cb',
    language,
  });
const render = (...a: Parameters<typeof page>) => ({ status: page(...a).status, ...renderPage(page(...a)) });

describe('the page of the consents to accept again', () => {
  it('escapes every value: no tag, no script of it', () => {
    const { html } = render(HOSTILE, 'en', [HOSTILE]);
    assert.ok(!html.includes('<x-evil'));
    assert.ok(!html.includes('<script>alert(2)'));
    assert.ok(html.includes('&lt;x-evil'));
  });

  it('speaks every language, marks the required one, keeps the boxes checked, says why a refusal stops', () => {
    for (const language of LANGUAGES) {
      const t = textsIn(language).reconsent;
      const { html } = render('Shop', language);
      assert.match(html, new RegExp(`<html lang="${language}">`));
      for (const s of [
        t.heading('Shop'),
        t.lead,
        `Shop ${t.required}`,
        `Shop news ${t.optional}`,
        t.continue,
        t.cancel,
      ])
        assert.ok(html.includes(s), `${language}: ${s}`);
      assert.match(html, /name="consent_news" value="1" checked/);
      assert.doesNotMatch(html, /name="consent_terms" value="1" checked/);
      assert.doesNotMatch(html, /role="alert"/);
      if (language !== 'en') assert.notEqual(t.lead, textsIn('en').reconsent.lead, 'translated');
      const refused = render('Shop', language, ['Terms']);
      assert.equal(refused.status, 403);
      assert.ok(refused.html.includes(t.mustAccept('Terms')), language);
    }
  });
});
