// The consent page of a third-party client (interaction/pages/consent.ts), rendered directly: every
// value escaped (the client's name and links, who is signed in, the form's handle and token), each
// scope in plain words in every language, the logo allowed by the CSP and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consentPage } from '../../src/interaction/pages/consent.js';
import { renderPage } from '../../src/lib/html.js';
import { textsIn } from '../../src/texts/texts.js';
import { LANGUAGES } from '../../src/texts/language.js';

const HOSTILE = `"'><x-evil onload=alert(1)>&amp;</main><script>alert(2)</script>`;
const LOGO = 'https://partner.example/logo.png?a=1;b,c';

const render = (v: string, language: (typeof LANGUAGES)[number] = 'en', logo: string | null = LOGO) =>
  renderPage(
    consentPage({
      client: { name: v, logo_uri: logo, client_uri: `https://partner.example/${v}`, policy_uri: null, tos_uri: v },
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      who: v,
      interaction: v,
      csrf: v,
      target: 'https://partner.example/cb',
      language,
    }),
  );

describe('the consent page', () => {
  it('escapes every value: no tag, no script of it', () => {
    const { html } = render(HOSTILE);
    assert.ok(!html.includes('<x-evil'));
    assert.ok(!html.includes('<script>alert(2)'));
    assert.ok(html.includes('&lt;x-evil'));
  });

  it('allows the logo in the CSP, encoded so it adds no directive; no img-src without a logo', () => {
    const { headers } = render('Partner');
    const csp = headers['Content-Security-Policy']!;
    assert.match(csp, / img-src https:\/\/partner\.example\/logo\.png\?a=1%3Bb%2Cc;/);
    assert.equal(csp.split(';').filter((d) => d.trim().startsWith('img-src')).length, 1);
    assert.doesNotMatch(render('Partner', 'en', null).headers['Content-Security-Policy']!, /img-src/);
  });

  it('describes each scope in the page language', () => {
    for (const language of LANGUAGES) {
      const t = textsIn(language).consent;
      const { html } = render('Partner', language);
      assert.match(html, new RegExp(`<html lang="${language}">`));
      for (const scope of ['openid', 'profile', 'email', 'offline_access'])
        assert.ok(html.includes(`<li data-scope="${scope}">${t.scopes[scope]}</li>`), `${language} ${scope}`);
      assert.ok(html.includes(`>${t.allow}</button>`));
      assert.ok(html.includes(`>${t.deny}</button>`));
      if (language !== 'en') assert.notEqual(t.scopes.profile, textsIn('en').consent.scopes.profile, 'translated');
    }
  });
});
