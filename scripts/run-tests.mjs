// Runs every *.test.ts under test/ and src/ with node's test runner (TypeScript through tsx). The whole run
// (no file arguments) lints first (`npm run lint`: biome and the dependency rules), then checks the types
// (`npm run typecheck`: src, test, scripts and the example; tsx itself checks none), and stops if either fails;
// a run of named files skips the lint to keep the edit-test loop short. `--contract` runs the
// protocol, storage, interop, conformance and SDK tests only (no browser, no lint): CI's pass on Node 24 (.ci/run).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const contract = process.argv[2] === '--contract';
const only = contract ? [] : process.argv.slice(2);
// The protocol, storage contract, interop, conformance and SDK tests, without the browser ones (slow; the SDK's
// Node tests cover the same flows).
const CONTRACT_DIRS = ['test/protocol/', 'test/storage/', 'test/interop/', 'test/conformance/'];
const isContract = (f) =>
  (CONTRACT_DIRS.some((d) => f.startsWith(d)) || f === 'test/stepup/sdk.test.ts') && !f.includes('chromium');
if (!only.length && !contract) {
  const lint = spawnSync('npm', ['run', '-s', 'lint'], { stdio: 'inherit' });
  if (lint.status !== 0) {
    process.stderr.write('npm run lint failed: fix the findings above (format with `npx biome format --write .`)\n');
    process.exit(lint.status ?? 1);
  }
  const types = spawnSync('npm', ['run', '-s', 'typecheck'], { stdio: 'inherit' });
  if (types.status !== 0) {
    process.stderr.write('npm run typecheck failed: fix the type errors above\n');
    process.exit(types.status ?? 1);
  }
}
const all = [...find('src'), ...find('test')].sort();
const files = only.length ? only : contract ? all.filter(isContract) : all;
// The spec reporter ends with a list of every failed or cancelled test, so the tail of a CI log names them.
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec'];
const run = (list, env = process.env) =>
  spawnSync(process.execPath, [...args, ...list], { stdio: 'inherit', env }).status ?? 1;
if (contract) process.stdout.write(`The contract tests on node ${process.version} (${files.length} files)\n`);
const status = run(files);
if (only.length || contract || status !== 0) process.exit(status);

// The whole run proves the plain path is the same product as the tuned one (docs/performance.md):
// the protocol, token, storage contract and SDK tests once more with every speed-up off. Left out:
// the tests of a speed-up itself (they pin the tuned path) and the browser tests; the interaction
// pages' tests added.
const PINNED = ['pg-named', 'sqlite-batch', 'sqlite-tuning', 'document-fast-path', 'prepared'];
const plain = files.filter(
  (f) =>
    (isContract(f) || (f.startsWith('test/interaction/') && !f.includes('chromium'))) &&
    !PINNED.some((n) => f.endsWith(`/${n}.test.ts`)),
);
process.stdout.write(`\nThe same contract tests with WARD_TUNING=off (${plain.length} files):\n`);
process.exit(run(plain, { ...process.env, WARD_TUNING: 'off', WARD_TUNING_OFF: '' }));
