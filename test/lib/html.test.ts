// The html template of Ward's pages (src/lib/html.ts): every value escaped in text and in
// double-quoted attributes, safe markup kept, lists joined, nothing for null/undefined/false, and
// trustedHtml the only way to place markup unescaped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { html, joinHtml, renderPage, trustedHtml } from '../../src/lib/html.js';

/** Inputs an attacker controls somewhere: a name, an email, an error detail, a URL. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '&lt;already&gt; & escaped &amp;',
  '</main></body><body>',
  '<!-- comment -->',
  'javascript:alert(1)',
  'é ü ñ 中文 🙂 𝄞 \u202e',
  '\u0000<\u0000script>',
];

/** Reads back the text of an escaped value (what a browser shows). */
const readBack = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('the html template', () => {
  it('escapes every value in text position, and the browser would read the value back unchanged', () => {
    for (const v of HOSTILE) {
      const out = html`<p>${v}</p>`.toString();
      const inner = out.slice(3, -4);
      assert.doesNotMatch(inner, /[<>"']/, `nothing markup-like survives: ${out}`);
      assert.equal(readBack(inner), v);
    }
  });

  it('escapes quotes in attribute position, so a value cannot end its attribute', () => {
    for (const v of HOSTILE) {
      const out = html`<a href="${v}" title="${v}">x</a>`.toString();
      const m = /^<a href="([^"]*)" title="([^"]*)">x<\/a>$/.exec(out);
      assert.ok(m, `the element keeps its two attributes and nothing else: ${out}`);
      assert.equal(readBack(m[1]!), v);
      assert.doesNotMatch(m[1]!, /['<>]/);
    }
  });

  it('writes & as &amp; (an already escaped value is escaped again, not trusted)', () => {
    assert.equal(html`${'a & b &amp; c'}`.toString(), 'a &amp; b &amp;amp; c');
  });

  it('keeps unicode as it is', () => {
    assert.equal(html`<p>${'Zürich — 東京 🙂'}</p>`.toString(), '<p>Zürich — 東京 🙂</p>');
  });

  it('writes numbers, and nothing for null, undefined and false', () => {
    assert.equal(
      html`<i>${0}</i><i>${12.5}</i><i>${null}</i><i>${undefined}</i><i>${false}</i>`.toString(),
      '<i>0</i><i>12.5</i><i></i><i></i><i></i>',
    );
    const error: string | undefined = undefined;
    assert.equal(html`<form${error && html` aria-invalid="true"`}>`.toString(), '<form>');
  });

  it('keeps markup built by the template as it is, and escapes a plain string that looks like it', () => {
    const inner = html`<b>${'<i>'}</b>`;
    assert.equal(html`<p>${inner}</p>`.toString(), '<p><b>&lt;i&gt;</b></p>');
    assert.equal(html`<p>${'<b>x</b>'}</p>`.toString(), '<p>&lt;b&gt;x&lt;/b&gt;</p>');
  });

  it('joins lists, escaping each plain item and keeping safe ones, nested lists too', () => {
    const items = ['<a>', html`<li>${'"'}</li>`, ['&', html`<br>`]];
    assert.equal(html`<ul>${items}</ul>`.toString(), '<ul>&lt;a&gt;<li>&quot;</li>&amp;<br></ul>');
    assert.equal(joinHtml(['<x>', html`<y>`, null], html`\n`).toString(), '&lt;x&gt;\n<y>\n');
  });

  it('places markup unescaped only through trustedHtml', () => {
    assert.equal(html`<p>${trustedHtml('<b>bold</b>')}</p>`.toString(), '<p><b>bold</b></p>');
  });

  it('cannot be forged by an object that looks like safe markup', () => {
    const fake = { toString: () => '<script>alert(1)</script>' };
    // @ts-expect-error: only the template and trustedHtml make SafeHtml.
    assert.equal(html`${fake}`.toString(), '&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('renderPage', () => {
  it('escapes the title and the language, and keeps the inline script byte for byte (its CSP hash)', () => {
    const script = 'var s = "</p>" + \'&amp;\';';
    const { html: doc, headers } = renderPage({
      status: 200,
      title: '<script>x</script>',
      lang: '"><x',
      body: html`<p>${'<b>'}</p>`,
      script,
    });
    assert.match(doc, /<title>&lt;script&gt;x&lt;\/script&gt;<\/title>/);
    assert.match(doc, /<html lang="&quot;&gt;&lt;x">/);
    assert.ok(doc.includes(`<main><p>&lt;b&gt;</p><script>${script}</script></main>`));
    const hash = createHash('sha256').update(script).digest('base64');
    assert.ok(headers['Content-Security-Policy']!.includes(`'sha256-${hash}'`));
  });
});
