// The previous release's sources, for the rolling-upgrade test: the last commit on main's first-parent
// line before the newest change to `src/storage/migrations` (or HEAD itself while migrations are
// changed but not committed), extracted with `git archive` into a temporary directory that shares this
// checkout's node_modules. Run there with `node --import tsx src/cli.ts`, it is that release's Ward.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MIGRATIONS = 'src/storage/migrations';

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

/** Why the previous release cannot be read here (a shallow clone holds no history), or null. */
export function previousReleaseUnavailable(): string | null {
  try {
    if (git(['rev-parse', '--is-shallow-repository']) === 'true')
      return 'a shallow clone: the previous release is not in its history';
    return null;
  } catch (e) {
    return `not a git checkout: ${(e as Error).message}`;
  }
}

/** The commit of the previous release. */
export function previousReleaseCommit(): string {
  const uncommitted = git(['status', '--porcelain', '--', MIGRATIONS]);
  if (uncommitted) return git(['rev-parse', 'HEAD']);
  const lastChange = git(['log', '--first-parent', '-1', '--format=%H', '--', MIGRATIONS]);
  return git(['rev-parse', `${lastChange}^`]);
}

export interface Release {
  commit: string;
  dir: string;
  /** The names of the migrations that release knows. */
  migrations: string[];
  remove(): void;
}

/** Extracts `commit`'s sources (src, package.json, tsconfig.json) beside this checkout's packages. */
export function checkOut(commit: string): Release {
  const dir = mkdtempSync(join(tmpdir(), 'ward-release-'));
  const archive = execFileSync('git', ['archive', commit, 'src', 'package.json', 'tsconfig.json'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  const migrations = readdirSync(join(dir, MIGRATIONS))
    .filter((f) => /^\d{3}-.*\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  return { commit, dir, migrations, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
