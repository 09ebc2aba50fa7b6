// The V8 heap settings of a server process: `npm start` passes them, `--workers` adds them to each
// worker (checked on real processes in shutdown-and-workers.test.ts), and an operator's own value
// of the same option wins.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SERVER_NODE_FLAGS, withServerNodeFlags } from '../../src/lib/server-node-flags.js';

describe('server node flags', () => {
  it('are added to a command line that has none of them', () => {
    assert.deepEqual(withServerNodeFlags(['--import', 'tsx']), ['--import', 'tsx', ...SERVER_NODE_FLAGS]);
  });

  it("leave an operator's own setting of the same option alone, whichever spelling", () => {
    const own = ['--max_semi_space_size=32', '--heap-growing-percent=50'];
    assert.deepEqual(withServerNodeFlags(own), own);
    assert.deepEqual(withServerNodeFlags(['--max-semi-space-size=4']), ['--max-semi-space-size=4', '--heap-growing-percent=30']);
  });

  it('are the ones npm start runs the server with', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts.start!;
    const node = start.slice(start.lastIndexOf('node '));
    assert.match(node, /dist\/cli\.js start$/);
    for (const flag of SERVER_NODE_FLAGS) assert.ok(node.split(' ').includes(flag), `${flag} missing from: ${start}`);
  });
});
