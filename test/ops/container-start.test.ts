// The image's start command, from a clean copy of exactly the files the Dockerfile puts in the image
// (issue 40; Docker does not run here). The build stage is laid out from its COPY lines and its RUN
// steps are run as written (its `npm ci` stood in for by the repository's node_modules, installed from
// the same lockfile); the runtime stage gets package.json, the build's dist/ and, for `npm ci
// --omit=dev`, only the lockfile's production packages (linked, and resolved through the links with
// --preserve-symlinks, so a dev package cannot be reached). The image's CMD then runs there with the
// image's environment and a fresh data directory: it must answer /healthz and the image's HEALTHCHECK,
// exit 0 on SIGTERM, and write nothing outside the data directory (the root filesystem is read-only).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshPgSchema, testPostgresUrl } from '../helpers/databases.js';
import { copyOf, envOf, execForm, parseDockerfile } from '../helpers/dockerfile.js';
import { freePort } from '../helpers/free-port.js';
import { waitForOutput } from '../helpers/processes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docker = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = docker.stages[docker.stages.length - 1];
const buildStage = docker.stages.find((s) => s.name === 'build')!;
const step = (op: string) => runtime.steps.find((x) => x.op === op)!;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** A COPY from the build context (the repository) into a folder standing for the stage's WORKDIR. */
function copyFromContext(sources: string[], dest: string, into: string): void {
  for (const source of sources) {
    const target = dest.endsWith('/') ? join(into, dest, basename(source)) : join(into, dest);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(ROOT, source), target, { recursive: true });
  }
}

/** What `npm ci --omit=dev` installs: the lockfile's packages not marked dev, linked from node_modules. */
function productionModules(target: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [path, meta] of Object.entries(lock.packages)) {
    const name = path.slice('node_modules/'.length);
    if (!path.startsWith('node_modules/') || name.includes('/node_modules/') || meta.dev) continue;
    if (!existsSync(join(ROOT, path))) continue; // an optional package of another platform
    mkdirSync(dirname(join(target, name)), { recursive: true });
    symlinkSync(join(ROOT, path), join(target, name));
  }
}

/** The package a module specifier names (`@scope/name/sub` is `@scope/name`), or null for node's own. */
const packageOf = (spec: string): string | null =>
  spec.startsWith('node:') || builtinModules.includes(spec)
    ? null
    : spec.startsWith('@')
      ? spec.split('/').slice(0, 2).join('/')
      : spec.split('/')[0]!;

/**
 * Every package the built code under `dir` loads: its imports and requires as esbuild reads them (so a
 * `from 'x'` in a bundled package's comment is not one), and the names it hands to a require of its
 * own making or to `resolve` (`createRequire(...)('pg')`, the password-strength thread's packages).
 */
async function packagesNamed(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(d, entry.name));
      else if (entry.name.endsWith('.js')) files.push(join(d, entry.name));
  };
  walk(dir);
  const { metafile } = await build({
    entryPoints: files,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    write: false,
    outdir: join(dir, 'unused'),
    metafile: true,
    logLevel: 'silent',
  });
  const add = (spec: string) => {
    const name = packageOf(spec);
    if (name) out.add(name);
  };
  for (const input of Object.values(metafile.inputs)) for (const i of input.imports) if (i.external) add(i.path);
  const made = /(?:\bresolve\s*\(\s*|\bcreateRequire\w*\([^)]*\)\(\s*)['"]([@a-z][\w@./-]*)['"]/g;
  for (const f of files) for (const [, spec] of readFileSync(f, 'utf8').matchAll(made)) add(spec!);
  return out;
}

/** Every file under a folder with its size and modification time (links not followed). */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const s = lstatSync(p);
      out.push(`${p.slice(dir.length)} ${s.size} ${s.mtimeMs}`);
      if (s.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

describe('the image started from its own files', () => {
  const work = mkdtempSync(join(tmpdir(), 'ward-image-'));
  const app = join(work, 'app');
  const healthcheck = execForm(step('HEALTHCHECK'));
  const image = envOf(runtime);

  before(() => {
    const build = join(work, 'build');
    mkdirSync(build);
    for (const s of buildStage.steps) {
      if (s.op === 'COPY') copyFromContext(copyOf(s).sources, copyOf(s).dest, build);
      else if (s.op === 'RUN' && s.args === 'npm ci')
        symlinkSync(join(ROOT, 'node_modules'), join(build, 'node_modules'));
      else if (s.op === 'RUN') {
        const r = spawnSync('sh', ['-c', s.args], { cwd: build, encoding: 'utf8' });
        assert.equal(r.status, 0, `RUN ${s.args} in the build stage: ${r.stdout}${r.stderr}`);
      }
    }
    mkdirSync(app);
    for (const s of runtime.steps.filter((x) => x.op === 'COPY')) {
      const { from, sources, dest } = copyOf(s);
      if (!from) copyFromContext(sources, dest, app);
      else if (sources[0] === '/app/dist') cpSync(join(build, 'dist'), join(app, dest), { recursive: true });
      else if (sources[0] === '/app/node_modules') productionModules(join(app, dest));
      else assert.fail(`COPY --from=${from} ${sources.join(' ')}: not laid out by this test`);
    }
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('holds the production packages of every package the compiled code names', async () => {
    const named = [...(await packagesNamed(join(app, 'dist')))].sort();
    // Packages the bundle leaves to node_modules (a native addon, one loaded only on PostgreSQL).
    assert.ok(named.includes('better-sqlite3') && named.includes('pg'), `found the imports: ${named.join(', ')}`);
    for (const dev of ['typescript', 'tsx', 'esbuild'])
      assert.ok(!existsSync(join(app, 'node_modules', dev)), `${dev} (a dev package) is not in the image`);
    for (const name of named) {
      assert.ok(Object.hasOwn(pkg.dependencies, name), `${name} is a production dependency`);
      assert.ok(existsSync(join(app, 'node_modules', name)), `${name} is installed in the image`);
    }
  });

  async function start(extra: Record<string, string>) {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const [node, ...args] = execForm(step('CMD'));
    assert.equal(node, 'node');
    const files = snapshot(app);
    // A container's environment: the image's ENV, not this process's (only PATH, for node itself).
    const env = {
      PATH: process.env.PATH!,
      ...image,
      WARD_DATA_DIR: dataDir,
      WARD_PORT: String(port),
      WARD_HOST: '127.0.0.1',
      WARD_ISSUER: url,
      WARD_LOG_LEVEL: 'warn',
      TMPDIR: tmp,
      NODE_OPTIONS: '--preserve-symlinks',
      ...extra,
    };
    const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const output = await waitForOutput(child, 'Ward is listening', 30_000);
    const check = () =>
      spawnSync(process.execPath, healthcheck.slice(1), {
        env: { PATH: env.PATH, WARD_PORT: String(port) },
        timeout: 10_000,
      }).status;
    try {
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.equal(check(), 0, "the image's HEALTHCHECK passes");
      const discovery = await fetch(`${url}/.well-known/openid-configuration`);
      assert.equal(((await discovery.json()) as { issuer: string }).issuer, url);
      assert.equal((await fetch(`${url}/readyz`)).status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, `exit code after SIGTERM: ${output()}`);
    assert.equal(check(), 1, 'the HEALTHCHECK fails once Ward is gone');
    assert.deepEqual(snapshot(app), files, 'nothing written in the application folder');
    assert.deepEqual(readdirSync(tmp), [], 'nothing written in the temporary folder');
    return readdirSync(dataDir).sort();
  }

  it('on SQLite: serves from the data directory alone, answers its HEALTHCHECK, exits 0 on SIGTERM', {
    timeout: 60_000,
  }, async () => {
    const data = await start({});
    assert.ok(data.includes('ward.db') && data.includes('master.key'), `the data directory: ${data.join(', ')}`);
  });

  it('on PostgreSQL with a master key, as compose.yaml runs it: writes nothing at all', {
    timeout: 60_000,
    skip: testPostgresUrl() ? false : 'WARD_TEST_DATABASE_URL is not set',
  }, async () => {
    const pg = await freshPgSchema();
    try {
      const url = new URL(pg.url);
      url.searchParams.set('options', `-c search_path=${pg.schema}`);
      const data = await start({
        WARD_DATABASE_URL: url.toString(),
        WARD_MASTER_KEY: randomBytes(32).toString('base64'),
      });
      assert.deepEqual(data, [], 'the data directory stays empty');
    } finally {
      await pg.drop();
    }
  });
});
