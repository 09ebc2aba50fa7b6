// The container recipe (Dockerfile, .dockerignore, compose.yaml; issue 40) as far as it can be checked
// without Docker: the image builds with the commands CI runs, copies files that exist and are in the
// build context, runs as a user with the data directory a volume, and compose.yaml's environment is
// one Ward's own configuration check accepts. container-start.test.ts starts what the image holds.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV } from '../../src/lib/tuning/heap-flags.js';
import { loadConfig } from '../../src/config/load.js';
import { ServerSchema } from '../../src/config/schema/server.js';
import { copyOf, envOf, execForm, parseDockerfile, type Stage } from '../helpers/dockerfile.js';
import { parseYamlSubset } from '../helpers/yaml-subset.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const docker = parseDockerfile(read('Dockerfile'));
const stage = (name: string) => docker.stages.find((s) => s.name === name)!;
const runtime = docker.stages[docker.stages.length - 1];
const runs = (s: Stage) => s.steps.filter((x) => x.op === 'RUN').map((x) => x.args);
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
/** The variables Ward reads: the server settings, and WARD_CONFIG naming the config file. */
const WARD_VARIABLES = new Set([...Object.keys(ServerSchema.properties), 'WARD_CONFIG']);
const imageEnv = envOf(runtime);

/** Whether .dockerignore leaves a path out of the build context (its patterns: names and `*`). */
function ignored(path: string): boolean {
  return read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .some((pattern) => {
      const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}(/|$)`);
      return re.test(path);
    });
}

describe('the Dockerfile', () => {
  it('builds with the commands CI and package.json run, and installs only production packages', () => {
    assert.deepEqual(runs(stage('build')), ['npm ci', 'npm run build']);
    assert.deepEqual(runs(stage('deps')), ['npm ci --omit=dev']);
    const ci = read('.ci/run')
      .split('\n')
      .map((l) => l.trim());
    assert.ok(ci.includes('npm ci'), '.ci/run installs with npm ci');
    assert.ok(
      ci.some((l) => /^npm run (-s )?build\b/.test(l)),
      '.ci/run builds with npm run build',
    );
    assert.match(
      pkg.scripts.build,
      /^npm run -s tsc -- -p tsconfig\.build\.json --noEmit && node scripts\/build\.mjs$/,
    );
    assert.ok(
      runs(runtime).every((r) => !/\b(npm|apt-get|tsc)\b/.test(r)),
      'nothing is installed or built in the image itself',
    );
  });

  it('is based on a Node that package.json supports, the same in every stage', () => {
    const image = docker.args.NODE_IMAGE;
    const major = Number(/^node:(\d+)-(bookworm-)?slim$/.exec(image)?.[1]);
    const ranges = pkg.engines.node.split('||').map((r) => r.trim());
    assert.ok(
      ranges.some(
        (r) => r === `>=${major}` || r.startsWith(`^${major}.`) || (/^>=\d+$/.test(r) && major >= Number(r.slice(2))),
      ),
      `node ${major} is in engines ${pkg.engines.node}`,
    );
    const names = new Set(docker.stages.map((s) => s.name));
    for (const s of docker.stages)
      assert.ok(s.image === image || names.has(s.image), `${s.name} starts from ${s.image}`);
    assert.equal(runtime.image, image);
  });

  it('copies files that exist and are in the build context, and from the stages that make them', () => {
    const made: Record<string, string> = { '/app/dist': 'npm run build', '/app/node_modules': 'npm ci' };
    for (const [i, s] of docker.stages.entries()) {
      for (const step of s.steps.filter((x) => x.op === 'COPY')) {
        const { from, sources } = copyOf(step);
        for (const source of sources) {
          if (!from) {
            assert.ok(existsSync(join(ROOT, source)), `COPY ${source} (line ${step.line}) exists`);
            assert.ok(!ignored(source), `COPY ${source} (line ${step.line}) is not in .dockerignore`);
            continue;
          }
          const origin = docker.stages.findIndex((x) => x.name === from);
          assert.ok(origin >= 0 && origin < i, `COPY --from=${from} names an earlier stage`);
          assert.ok(made[source], `COPY --from=${from} ${source} is something a stage makes`);
          assert.ok(
            runs(docker.stages[origin]).some((r) => r.startsWith(made[source])),
            `${from} runs ${made[source]}, which makes ${source}`,
          );
        }
      }
    }
    assert.equal(runtime.steps.find((x) => x.op === 'WORKDIR')?.args, '/app');
    assert.ok(!ignored('src') && ignored('node_modules') && ignored('data') && ignored('.env'));
  });

  it("runs as a user, with the data directory a volume, Ward settings only, and npm start's command", () => {
    const user = runtime.steps.filter((x) => x.op === 'USER').pop()?.args;
    assert.ok(user && user !== 'root' && user !== '0', `runs as ${user}`);
    const dataDir = imageEnv.WARD_DATA_DIR;
    assert.ok(dataDir?.startsWith('/'), 'WARD_DATA_DIR is an absolute path');
    assert.deepEqual(JSON.parse(runtime.steps.find((x) => x.op === 'VOLUME')!.args), [dataDir]);
    assert.ok(
      runs(runtime).some((r) => r.includes(`chown ${user}:${user} ${dataDir}`)),
      'the data directory belongs to the user',
    );
    for (const name of Object.keys(imageEnv))
      assert.ok(
        WARD_VARIABLES.has(name) || name === 'NODE_ENV' || name in SERVER_ENV,
        `ENV ${name} is a variable Ward reads, or one npm start sets`,
      );
    for (const [name, value] of Object.entries(SERVER_ENV)) assert.equal(imageEnv[name], value, `ENV ${name}`);
    assert.equal(imageEnv.WARD_TLS, 'off');
    assert.equal(runtime.steps.find((x) => x.op === 'EXPOSE')?.args, imageEnv.WARD_PORT);
    // npm start's command after its variables (the image's ENV sets them).
    const start = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
    assert.deepEqual(execForm(runtime.steps.find((x) => x.op === 'CMD')!), start.slice(start.indexOf('node')));
    const check = execForm(runtime.steps.find((x) => x.op === 'HEALTHCHECK')!);
    assert.equal(check[0], 'node', 'the health check needs no curl');
    assert.match(check.join(' '), /\/healthz/);
    // The config Ward makes of the image's environment alone: valid, listening on every interface.
    const config = loadConfig(imageEnv);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDir, dataDir);
  });
});

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}` with the operator's variables. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const v = vars[name];
    if (v !== undefined && v !== '') return v;
    if (kind === '?') throw new Error(`${name}: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

describe('compose.yaml', () => {
  // A parsed document, checked field by field below.
  const compose = parseYamlSubset(read('compose.yaml')) as any;
  const ward = compose.services.ward;
  const postgres = compose.services.postgres;
  const operator = {
    POSTGRES_PASSWORD: 'k2P9x7Qw',
    WARD_MASTER_KEY: randomBytes(32).toString('base64'),
    WARD_ISSUER: 'https://id.example.com',
  };

  it('runs the image built from this folder beside a healthy PostgreSQL 15 or 16', () => {
    assert.match(postgres.image, /^postgres:1[56]\b/);
    assert.equal(ward.build, '.');
    assert.equal(ward.depends_on.postgres.condition, 'service_healthy');
    assert.equal(ward.read_only, 'true', 'a read-only root filesystem');
    assert.ok(ward.volumes.includes(`ward-data:${imageEnv.WARD_DATA_DIR}`), 'the data directory is a volume');
    assert.ok(Object.hasOwn(compose.volumes, 'ward-data') && Object.hasOwn(compose.volumes, 'postgres-data'));
    assert.ok(
      ward.ports.every((p: string) => p.endsWith(`:${imageEnv.WARD_PORT}`)),
      'publishes the port Ward listens on',
    );
  });

  it("sets only variables Ward reads, and Ward's configuration check accepts them", () => {
    const names = Object.keys(ward.environment);
    for (const name of names) assert.ok(WARD_VARIABLES.has(name), `${name} is a variable Ward reads`);
    for (const name of ['WARD_DATABASE_URL', 'WARD_MASTER_KEY', 'WARD_ISSUER']) assert.ok(names.includes(name));
    const env = Object.fromEntries(names.map((n) => [n, interpolate(ward.environment[n], operator)]));
    const config = loadConfig({ ...imageEnv, ...env });
    const db = new URL(config.databaseUrl!);
    assert.equal(db.hostname, 'postgres', 'the database service by name');
    assert.equal(db.username, interpolate(postgres.environment.POSTGRES_USER, operator));
    assert.equal(db.password, operator.POSTGRES_PASSWORD);
    assert.equal(db.pathname, `/${interpolate(postgres.environment.POSTGRES_DB, operator)}`);
    assert.equal(config.masterKey, operator.WARD_MASTER_KEY);
    assert.equal(config.issuer, operator.WARD_ISSUER);
    assert.equal(config.tls, false);
    // The variables an operator must set are required, not silently empty.
    for (const missing of ['POSTGRES_PASSWORD', 'WARD_MASTER_KEY'] as const) {
      const without: Record<string, string> = { ...operator };
      delete without[missing];
      assert.throws(() => names.map((n) => interpolate(ward.environment[n], without)), new RegExp(missing));
    }
  });
});
