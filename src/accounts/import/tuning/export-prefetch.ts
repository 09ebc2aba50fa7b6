// Speed-up `export_prefetch` (docs/performance.md; plain path: export-users.ts's pagesOf, each page
// read once the one before is written). The next page is asked for as soon as a page arrives, so on
// PostgreSQL its queries run in the database while this process turns the page into NDJSON. At most
// one page is read ahead: memory stays two pages, whatever the number of users.
import { lastIdOf, type ReadPage } from '../export-users.js';
import type { ExportPage } from '../../../storage/sql/user-import.js';

export async function* prefetchedPages(read: ReadPage): AsyncGenerator<ExportPage> {
  let next = read(null);
  try {
    for (;;) {
      const page = await next;
      if (!page.users.length) return;
      next = read(lastIdOf(page));
      yield page;
    }
  } finally {
    // A page read ahead that nobody will take (the reader stopped, or failed): its outcome is dropped.
    next.catch(() => {});
  }
}
