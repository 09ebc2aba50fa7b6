// The V8 heap settings of a server process: `npm start` and `--workers` give both flags (the workers
// are checked on real processes in shutdown-and-workers.test.ts), a process started without them sets
// the old generation's growth itself, and an operator's own value of either option wins. The same for
// the environment they start it with (glibc's malloc arenas).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  SERVER_ENV,
  SERVER_NODE_FLAGS,
  missingServerEnv,
  withServerNodeFlags,
} from '../../src/lib/tuning/heap-flags.js';

const fixture = fileURLToPath(new URL('./fixtures/old-space-growth.ts', import.meta.url));
/** The largest old space (bytes) of the churn fixture, in a node started with `flags`. */
const oldSpacePeak = (flags: string[], ...args: string[]) =>
  Number(
    execFileSync(process.execPath, [...flags, '--import', 'tsx', fixture, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );

describe('server node flags', () => {
  it('are added to a command line that has none of them', () => {
    assert.deepEqual(withServerNodeFlags(['--import', 'tsx']), ['--import', 'tsx', ...SERVER_NODE_FLAGS]);
  });

  it("leave an operator's own setting of the same option alone, whichever spelling", () => {
    const others = (option: string) => SERVER_NODE_FLAGS.filter((f) => !f.startsWith(option));
    assert.deepEqual(withServerNodeFlags(['--max_semi_space_size=32']), [
      '--max_semi_space_size=32',
      ...others('--max-semi-space-size'),
    ]);
    assert.deepEqual(withServerNodeFlags(['--max-semi-space-size=4', '--inspect', '--heap_growing_percent=50']), [
      '--max-semi-space-size=4',
      '--inspect',
      '--heap_growing_percent=50',
    ]);
  });

  it('are the ones npm start runs the server with', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = pkg.scripts.start!;
    const node = start.slice(start.lastIndexOf('node '));
    assert.match(node, /dist\/cli\.js start$/);
    for (const flag of SERVER_NODE_FLAGS) assert.ok(node.split(' ').includes(flag), `${flag} missing from: ${start}`);
    // Each variable before node, where glibc reads it; an operator's own value wins (${NAME:-value}).
    const assignments = start
      .slice(start.lastIndexOf('&&') + 2, start.lastIndexOf('node '))
      .trim()
      .split(/\s+/);
    assert.deepEqual(
      assignments,
      Object.entries(SERVER_ENV).map(([name, value]) => `${name}=\${${name}:-${value}}`),
    );
  });

  it("are in the environment unless the operator's own value is", () => {
    assert.deepEqual(missingServerEnv({}), { ...SERVER_ENV });
    assert.deepEqual(missingServerEnv({ MALLOC_ARENA_MAX: '8' }), {});
    assert.equal(SERVER_ENV.MALLOC_ARENA_MAX, '2');
  });

  it("keep the old generation near what is live, unless the command line set V8's growth itself", () => {
    const defaults = oldSpacePeak([]);
    const applied = oldSpacePeak([], 'apply');
    const operators = oldSpacePeak(['--heap-growing-percent=300'], 'apply');
    assert.ok(applied < defaults * 0.75, `old space peak ${applied} with the setting, ${defaults} without`);
    assert.ok(
      operators > applied * 1.3,
      `old space peak ${operators} with the operator's own growth, ${applied} with Ward's`,
    );
  });

  it('hold the old generation from the start only when given on the command line', () => {
    // A server sets the growth at run time only after loading and reading its settings: by then V8 has
    // set a limit of its own, which the late setting does not undo. On the command line it holds.
    // The same young generation on both sides; the late setting's peak varies with when V8 collects
    // (120-230 MB here against 85-95 MB on the command line), so it is the larger of two runs.
    const semiSpace = SERVER_NODE_FLAGS.filter((f) => f.startsWith('--max-semi-space-size'));
    const late = Math.max(oldSpacePeak(semiSpace, 'late'), oldSpacePeak(semiSpace, 'late'));
    const given = oldSpacePeak([...SERVER_NODE_FLAGS], 'late');
    assert.ok(given < late * 0.8, `old space peak ${given} with the server flags, ${late} set at run time`);
  });
});
