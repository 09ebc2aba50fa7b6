// The README stays a short entry point (at most 200 lines, with the two commands a newcomer runs), and
// every relative link of the README and of docs/*.md leads somewhere: the file exists and, when the link
// names an anchor in a Markdown file, a heading of that file has that anchor (GitHub's rule).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
];

/** The text outside fenced code blocks, line by line (links and headings in code are not Markdown). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative link targets of a page: `[text](target)` outside code, not a URL with a scheme. */
function relativeLinks(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1])) out.push(m[1]);
    }
  }
  return out;
}

describe('documentation', () => {
  it('computes anchors as GitHub does', () => {
    const anchors = anchorsOf(
      '# Ward\n## Logout: `GET` and `POST /identity/v1/logout`\n## OAuth 2.0 and OpenID Connect\n## Ward\n```\n# not a heading\n```',
    );
    assert.deepEqual(
      [...anchors],
      ['ward', 'logout-get-and-post-identityv1logout', 'oauth-20-and-openid-connect', 'ward-1'],
    );
  });

  it('keeps the README short, with the two commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    const lines = readme.replace(/\n$/, '').split('\n').length;
    assert.ok(lines <= 200, `README.md has ${lines} lines: move the detail to a page of docs/`);
    // CI's .ci/run runs `npm test`, the README's test command.
    assert.match(readme, /^npm install && npm start +# /m);
    assert.match(readme, /^npm test +# /m);
  });

  it('has every relative link of README.md and docs/*.md point to an existing file and heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const link of relativeLinks(readFileSync(page, 'utf8'))) {
        const [path, anchor] = link.split('#', 2);
        const target = path ? normalize(join(dirname(page), decodeURI(path))) : page;
        checked++;
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no file ${target})`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
          broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    assert.ok(checked > 50, `only ${checked} links found: is the link pattern still right?`);
    assert.deepEqual(broken, []);
  });
});
