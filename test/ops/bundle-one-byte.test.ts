// The bundle `npm run build` writes is one byte per character for V8 (every character below U+0100):
// V8 keeps a module's source while it runs, and a single character above U+00FF doubles what the
// 2.4 MB text takes in the heap (scripts/build.mjs, keepOneByte; docs/performance.md, "Peak RSS").
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { keepOneByte } = (await import(new URL('../../scripts/build.mjs', import.meta.url).href)) as {
  keepOneByte(text: string): { text: string; left: number[] };
};
const aboveLatin1 = (text: string) => [...text.matchAll(/[\u0100-\uffff]/g)].length;

describe('the bundle', () => {
  it('has no character above U+00FF (esbuild leaves those of comments, templates and regular expressions)', () => {
    const out = join(ROOT, 'test-artifacts', 'one-byte-build');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), out], { cwd: ROOT });
    try {
      assert.equal(aboveLatin1(readFileSync(join(out, 'cli.js'), 'utf8')), 0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('escapes them in comment lines and names the other lines', () => {
    const doc = '/**\n * @param {string} a \u2014 a code\n */\nconst x = "\\u2014 caf\u00e9";\n';
    assert.deepEqual(keepOneByte(doc), {
      text: '/**\n * @param {string} a \\u2014 a code\n */\nconst x = "\\u2014 caf\u00e9";\n',
      left: [],
    });
    assert.deepEqual(keepOneByte('// \u2026\nconst page = html`<p>Loading\u2026</p>`;\n'), {
      text: '// \\u2026\nconst page = html`<p>Loading\u2026</p>`;\n',
      left: [2],
    });
  });
});
