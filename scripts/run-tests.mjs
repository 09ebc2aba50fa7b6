// Runs every *.test.ts under test/ and src/ with node's test runner (TypeScript through tsx). The whole run
// (no file arguments) lints first (`npm run lint`: biome and the dependency rules) and stops if that fails;
// a run of named files skips the lint to keep the edit-test loop short.
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

const only = process.argv.slice(2);
if (!only.length) {
  const lint = spawnSync('npm', ['run', '-s', 'lint'], { stdio: 'inherit' });
  if (lint.status !== 0) {
    process.stderr.write('npm run lint failed: fix the findings above (format with `npx biome format --write .`)\n');
    process.exit(lint.status ?? 1);
  }
}
const files = only.length ? only : [...find('src'), ...find('test')].sort();
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
