// The speed-up export_prefetch (src/accounts/import/tuning/export-prefetch.ts) on its own: it asks
// for the next page as a page arrives, never more than one ahead, ends on the first empty page, and a
// reader that stops early leaves no read-ahead failure unhandled. The export's output with it on a
// real store, on both engines: test/management/user-export.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pagesOf, type ReadPage } from '../../src/accounts/import/export-users.js';
import { prefetchedPages } from '../../src/accounts/import/tuning/export-prefetch.js';
import type { ExportPage } from '../../src/storage/sql/user-import.js';

const pageOf = (ids: string[]): ExportPage => ({
  users: ids.map((id) => ({ id }) as ExportPage['users'][number]),
  identities: [],
  factors: [],
  externalIds: [],
  profiles: new Map(),
});

/** Pages of two over these ids, recording each read and how many were in flight at once. */
function pagesOver(ids: string[], failAfter?: string) {
  const asked: Array<string | null> = [];
  let inFlight = 0;
  let most = 0;
  const read: ReadPage = async (after) => {
    asked.push(after);
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 2));
    inFlight--;
    if (failAfter !== undefined && after === failAfter) throw new Error('the store went away');
    const from = after === null ? 0 : ids.indexOf(after) + 1;
    return pageOf(ids.slice(from, from + 2));
  };
  return { read, asked, most: () => most };
}

const idsOf = async (pages: AsyncIterable<ExportPage>) => {
  const out: string[][] = [];
  for await (const p of pages) out.push(p.users.map((u) => u.id));
  return out;
};

describe('export_prefetch: the next page read ahead', () => {
  it('gives the pages of the plain path, in order, one read ahead at most', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const plain = pagesOver(ids);
    const ahead = pagesOver(ids);
    const expected = [['a', 'b'], ['c', 'd'], ['e']];
    assert.deepEqual(await idsOf(pagesOf(plain.read)), expected);
    assert.deepEqual(await idsOf(prefetchedPages(ahead.read)), expected);
    assert.deepEqual(ahead.asked, [null, 'b', 'd', 'e'], 'each page asked for once, after the last id');
    assert.equal(ahead.most(), 1, 'never two reads at once');
  });

  it('asks for the next page before the reader is done with this one', async () => {
    const src = pagesOver(['a', 'b', 'c']);
    const it = prefetchedPages(src.read)[Symbol.asyncIterator]();
    await it.next();
    assert.deepEqual(src.asked, [null, 'b'], 'the second page is on its way while the first is written');
    await it.return(undefined);
  });

  it('a reader that stops early leaves no failure of the page read ahead unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const src = pagesOver(['a', 'b', 'c', 'd'], 'b');
      for await (const page of prefetchedPages(src.read)) {
        assert.deepEqual(
          page.users.map((u) => u.id),
          ['a', 'b'],
        );
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a failed read reaches the reader', async () => {
    const src = pagesOver(['a', 'b', 'c', 'd'], 'b');
    await assert.rejects(idsOf(prefetchedPages(src.read)), /the store went away/);
  });
});
