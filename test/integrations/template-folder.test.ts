// The operator's templates (WARD_TEMPLATES_DIR) are read once and again only when a file changes:
// an unchanged file is never read a second time, a changed, new or removed one is seen at the next
// message without a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderAccountMessage } from '../../src/integrations/account-messages.js';
import { createTemplateFolder, type TemplateFs } from '../../src/integrations/template-folder.js';

describe('the templates folder', () => {
  it('reads a file once while it is unchanged, and again when its size or time changes', () => {
    const files = new Map<string, { size: number; mtimeMs: number; text: string }>();
    const reads: string[] = [];
    const fs: TemplateFs = {
      stat: (p) => files.get(p),
      read: (p) => {
        reads.push(p);
        return files.get(p)!.text;
      },
    };
    const folder = createTemplateFolder('/t', fs);
    files.set('/t/a.txt', { size: 3, mtimeMs: 1, text: 'one' });
    assert.equal(folder.file('a.txt'), 'one');
    assert.equal(folder.file('a.txt'), 'one');
    assert.equal(folder.file('a.txt'), 'one');
    assert.deepEqual(reads, ['/t/a.txt']);

    files.set('/t/a.txt', { size: 3, mtimeMs: 2, text: 'two' });
    assert.equal(folder.file('a.txt'), 'two');
    files.set('/t/a.txt', { size: 5, mtimeMs: 2, text: 'three' });
    assert.equal(folder.file('a.txt'), 'three');
    assert.equal(folder.file('a.txt'), 'three');
    assert.deepEqual(reads, ['/t/a.txt', '/t/a.txt', '/t/a.txt']);

    assert.equal(folder.file('b.txt'), undefined);
    files.delete('/t/a.txt');
    assert.equal(folder.file('a.txt'), undefined);
    assert.equal(reads.length, 3);
  });

  it('an account message picks up a changed template file, and does not re-read an unchanged one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-templates-'));
    const path = join(dir, 'verify_email.en.subject.txt');
    const render = () => renderAccountMessage({ kind: 'verify_email', code: '123456', appName: 'Shop' }, dir).subject;
    try {
      const then = new Date('2026-01-01T00:00:00Z');
      writeFileSync(path, 'One {{app}}\n');
      utimesSync(path, then, then);
      assert.equal(render(), 'One Shop');

      // Same size, same time: the folder trusts what it read and does not open the file again.
      writeFileSync(path, 'Two {{app}}\n');
      utimesSync(path, then, then);
      assert.equal(statSync(path).mtimeMs, then.getTime());
      assert.equal(render(), 'One Shop');

      // The operator's edit (a new modification time): picked up at the next message.
      const later = new Date('2026-01-01T00:01:00Z');
      utimesSync(path, later, later);
      assert.equal(render(), 'Two Shop');
      writeFileSync(path, 'Welcome to {{app}}!\n');
      assert.equal(render(), 'Welcome to Shop!');

      // Removed: Ward's own text again.
      rmSync(path);
      assert.equal(render(), 'Confirm your email address for Shop');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
