// CI's start check (.ci/run): the built server, started as `npm start` starts it (the node flags and
// environment of package.json's start script, after the build), on the node running this script, tuned and with
// WARD_TUNING=off: it must say it listens, answer /healthz and a few requests, serve on for a few
// seconds (garbage collections included: on Node 24 that is where better-sqlite3 once aborted the
// process, issue 40), and exit 0 on SIGTERM. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const start = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
// "npm run -s build && NAME=${NAME:-value} node <flags> dist/cli.js start": the part after the build,
// on this node, with the variables it sets (a value already in the environment wins, as in the shell).
const words = start.split('&&').pop().trim().split(/\s+/);
const assigned = {};
while (/^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
  const [name, value] = words.shift().split(/=(.*)/);
  const fallback = /^\$\{(\w+):-(.*)\}$/.exec(value);
  assigned[name] = fallback ? (process.env[fallback[1]] ?? fallback[2]) : value;
}
const [, ...argv] = words;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function check(tuning) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ward-start-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, argv, {
    env: {
      ...process.env,
      ...assigned,
      WARD_DATA_DIR: dataDir,
      WARD_PORT: String(port),
      WARD_HOST: '127.0.0.1',
      WARD_TLS: 'off',
      WARD_ISSUER: url,
      WARD_TUNING: tuning,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const fail = (why) => {
    child.kill('SIGKILL');
    throw new Error(`ward start (WARD_TUNING=${tuning}) on node ${process.version}: ${why}\n${out.slice(-3000)}`);
  };
  const deadline = Date.now() + 60_000;
  while (!out.includes('Ward is listening')) {
    if (child.exitCode !== null || child.signalCode !== null) fail('exited before listening');
    if (Date.now() > deadline) fail('not listening after 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const ask = async (path, init) => {
    try {
      const res = await fetch(`${url}${path}`, init);
      await res.arrayBuffer();
      return res.status;
    } catch (e) {
      return fail(`${path}: ${e.cause?.message ?? e.message}`);
    }
  };
  const health = await ask('/healthz');
  if (health !== 200) fail(`/healthz answered ${health}`);
  // Requests that read the database, then time for the collector; the process must still be there.
  const refused = {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: 'a', password: 'b' }),
  };
  for (let i = 0; i < 50; i++) {
    await ask('/.well-known/openid-configuration');
    await ask('/jwks.json');
    await ask('/oauth/token', refused);
  }
  await new Promise((r) => setTimeout(r, 4000));
  if ((await ask('/healthz')) !== 200) fail('/healthz failed after the requests');
  child.kill('SIGTERM');
  const { code, signal } = await exited;
  if (code !== 0) fail(`exit code ${code}, signal ${signal} after SIGTERM`);
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(`ward start (WARD_TUNING=${tuning}) on node ${process.version}: listened, answered, exited 0\n`);
}

await check('on');
await check('off');
