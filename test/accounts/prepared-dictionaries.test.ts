// Speed-up `prepared_dictionaries` (src/accounts/tuning/prepared-dictionaries.ts): the password
// estimator's thread takes zxcvbn's dictionaries ranked at build time instead of ranking the word
// lists at each start. Both paths give every password the same score; the prepared ones are used
// only with the package versions they were made from; `npm run build` writes them beside the server.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createStrengthEstimator, zxcvbnVersions } from '../../src/accounts/password-strength.js';
import {
  PREPARED_DICTIONARIES_FILE,
  prepareDictionaries,
  preparedDictionariesIn,
} from '../../src/accounts/tuning/prepared-dictionaries.js';
import { freePort } from '../helpers/free-port.js';
import { spawnBuiltWard, waitForOutput } from '../helpers/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SETTINGS = { maxLength: 64, l33tMaxSubstitutions: 8 };

/** Passwords that exercise each of zxcvbn's matchers and dictionaries, with the owner's words. */
const CORPUS: Array<[string, string[]]> = [
  ['password', []],
  ['Password1!', []],
  ['123456', []],
  ['qwertyuiop', []],
  ['zxcvbnm,./', []],
  ['1qaz2wsx3edc', []],
  ['aaaaaaaaaa', []],
  ['abcdefgh', []],
  ['correct horse battery staple', []],
  ['Tr0ub4dor&3', []],
  ['p@ssw0rd', []],
  ['drowssap', []],
  ['michael1985', []],
  ['jennifer', []],
  ['smith2000', []],
  ['01/02/1990', []],
  ['19900102', []],
  ['soleil123', []],
  ['motdepasse', []],
  ['bonjourlemonde', []],
  ['chocolat', []],
  ['Mississippi', []],
  ['thequickbrownfox', []],
  ['iloveyou!!', []],
  ['dragon', []],
  ['monkey123', []],
  ['alice.martin', ['alice.martin@example.com', 'alice', 'martin']],
  ['Martin-Alice-2024', ['alice', 'martin']],
  ['xK9#mQ2$vL7!', []],
  ['Sunflower-Garden-1987', []],
  ['correcthorsebatterystaple', []],
  ['j3nn1f3r', []],
  ['12345678901234567890', []],
  ['azertyuiop', []],
  ['Liberté-Égalité', []],
  ['ab12cd34ef56', []],
  ['summer2024', []],
  ['Winter!2023', []],
  ['letmein', []],
  ['trustno1', []],
];

describe('prepared_dictionaries', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ward-prepared-'));
    file = join(dir, PREPARED_DICTIONARIES_FILE);
    writeFileSync(file, prepareDictionaries());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('scores every password as the estimator that ranks the word lists does', async () => {
    const lists = createStrengthEstimator(SETTINGS);
    const prepared = createStrengthEstimator(SETTINGS);
    prepared.usePrepared({ file, versions: zxcvbnVersions() });
    try {
      const scores = async (e: typeof lists) => {
        const out: number[] = [];
        for (const [password, inputs] of CORPUS) out.push(await e.score(password, inputs));
        return out;
      };
      const fromLists = await scores(lists);
      const fromPrepared = await scores(prepared);
      assert.equal(lists.madeFrom(), 'lists');
      assert.equal(prepared.madeFrom(), 'prepared');
      assert.deepEqual(fromPrepared, fromLists);
      // The corpus reaches every score, so a dictionary missing or mis-ranked shows.
      assert.deepEqual(new Set(fromLists), new Set([0, 1, 2, 3, 4]));
    } finally {
      await lists.close();
      await prepared.close();
    }
  });

  it('holds each list as the estimator ranks it: first word 1, every word, the longest word', () => {
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      versions: Record<string, string>;
      ranked: Record<string, Record<string, number>>;
      maxWordSize: Record<string, number>;
    };
    assert.deepEqual(data.versions, zxcvbnVersions());
    assert.ok(Object.keys(data.ranked).length >= 30, 'every list of the three packages');
    const common = data.ranked['passwords-common']!;
    const [first] = Object.entries(common).sort(([, a], [, b]) => a - b);
    assert.equal(first?.[1], 1);
    assert.ok(Object.keys(common).length > 10_000);
    const longest = Math.max(...Object.keys(common).map((w) => w.length));
    assert.equal(data.maxWordSize['passwords-common'], longest);
  });

  it('is left aside when made from other package versions: the thread ranks the lists', async () => {
    const estimator = createStrengthEstimator(SETTINGS);
    estimator.usePrepared({ file, versions: { ...zxcvbnVersions(), core: '0.0.0-other' } });
    try {
      assert.equal(await estimator.score('correct horse battery staple', []), 4);
      assert.equal(estimator.madeFrom(), 'lists');
    } finally {
      await estimator.close();
    }
  });

  it('is written by the build beside the bundle, whose first start checks the password with it', {
    timeout: 180_000,
  }, async () => {
    // Inside the project, as dist/ is: the bundle finds its packages in node_modules from there.
    const out = join(ROOT, 'test-artifacts', `prepared-build-${process.pid}`);
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), out], { cwd: ROOT });
      const written = join(out, PREPARED_DICTIONARIES_FILE);
      const data = JSON.parse(readFileSync(written, 'utf8')) as { versions: unknown; ranked: Record<string, object> };
      assert.deepEqual(data.versions, zxcvbnVersions());
      // A first start whose WARD_ADMIN_PASSWORD is a first name twice: zxcvbn scores it 0, under the
      // policy's 2, and the start stops.
      const first = (password: string) => {
        const data = mkdtempSync(join(tmpdir(), 'ward-prepared-data-'));
        return freePort().then((port) => {
          const child = spawnBuiltWard(out, {
            cwd: ROOT,
            dataDir: data,
            port,
            env: { WARD_ADMIN_PASSWORD: password },
          });
          return { child, data };
        });
      };
      const refused = await first('jenniferjennifer');
      let said = '';
      refused.child.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
      });
      const code = refused.child.exitCode ?? (await once(refused.child, 'exit'))[0];
      rmSync(refused.data, { recursive: true, force: true });
      assert.notEqual(code, 0);
      assert.match(said, /WARD_ADMIN_PASSWORD: .*too easy to guess \(strength 0/);
      // The same start with the file's lists emptied (its versions kept): the bundle took its words
      // from the file, so the name is no longer one, and the password passes.
      for (const name of Object.keys(data.ranked)) data.ranked[name] = {};
      writeFileSync(written, JSON.stringify(data));
      const taken = await first('jenniferjennifer');
      try {
        await waitForOutput(taken.child, 'Ward is listening', 60_000);
      } finally {
        taken.child.kill('SIGTERM');
        if (taken.child.exitCode === null) await once(taken.child, 'exit');
        rmSync(taken.data, { recursive: true, force: true });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is found beside the built server, and only there', () => {
    assert.deepEqual(preparedDictionariesIn(pathToFileURL(`${dir}/`)), { file, versions: zxcvbnVersions() });
    assert.equal(preparedDictionariesIn(pathToFileURL(`${tmpdir()}/ward-no-such-dir/`)), null);
  });
});
