// Speed-up `prepared_dictionaries` (src/accounts/tuning/prepared-dictionaries.ts): the password
// estimator's thread takes zxcvbn's word lists written at build time, and ranks them into Maps,
// instead of loading the language packages and ranking them into objects at each start. Both paths
// give every password the same score; the prepared ones are used
// only with the package versions they were made from; `npm run build` writes them beside the server.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as fr from '@zxcvbn-ts/language-fr';
import {
  createStrengthEstimator,
  rankedView,
  WORD_SEPARATOR,
  zxcvbnVersions,
} from '../../src/accounts/password-strength.js';
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
  // Names every plain object has, beside a word: the prepared lists answer for them as the ranked
  // objects do (zxcvbn takes what the object holds under the name for a rank).
  ['constructordragon', []],
  ['__proto__dragon', []],
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
    prepared.usePrepared(file);
    try {
      const scores = async (e: typeof lists) => {
        const out: number[] = [];
        for (const [password, inputs] of CORPUS) out.push(await e.score(password, inputs));
        return out;
      };
      const commons = async (e: typeof lists) => {
        const out: boolean[] = [];
        for (const [password] of [...CORPUS, ['PASSWORD'], ['Qwerty123'], ['iloveyou'], ['azerty']])
          out.push(await e.isCommon(password!));
        return out;
      };
      // The common-password list first, as a check after an idle stop asks for it.
      const commonFromLists = await commons(lists);
      const commonFromPrepared = await commons(prepared);
      assert.deepEqual(commonFromPrepared, commonFromLists);
      assert.ok(commonFromLists.filter(Boolean).length >= 8, 'the corpus has common passwords');
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

  it("holds each list in an order that ranks it as zxcvbn's own ranking does, with its longest word", () => {
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      versions: Record<string, string>;
      lists: Record<string, string>;
      maxWordSize: Record<string, number>;
    };
    assert.deepEqual(data.versions, zxcvbnVersions());
    const own = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary, ...fr.dictionary },
    }) as unknown as {
      options: {
        rankedDictionaries: Record<string, Record<string, number>>;
        rankedDictionariesMaxWordSize: Record<string, number>;
      };
    };
    assert.ok(Object.keys(data.lists).length >= 30, 'every list of the three packages');
    assert.deepEqual(Object.keys(data.lists), Object.keys(own.options.rankedDictionaries));
    for (const name of Object.keys(data.lists)) {
      // The thread's reading of the list: a word's rank is its place, the last place for a word listed twice.
      const words = data.lists[name]!.split(WORD_SEPARATOR);
      const view = rankedView(words);
      const theirs = own.options.rankedDictionaries[name]!;
      assert.equal(new Set(words).size, Object.keys(theirs).length, name);
      for (const [word, rank] of Object.entries(theirs)) assert.equal(view[word], rank, `${name}: ${word}`);
    }
    // Any other name: what a plain object has under it, as in the objects zxcvbn ranks itself.
    const view = rankedView(['dragon']);
    const plain: Record<string, unknown> = {};
    for (const name of ['constructor', '__proto__', 'tostring', 'dragons', ''])
      assert.equal((view as Record<string, unknown>)[name], plain[name], name);
    assert.deepEqual(data.maxWordSize, own.options.rankedDictionariesMaxWordSize);
  });

  it('is left aside when it cannot be read whole or is of another format: the thread ranks the lists', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, readFileSync(file, 'utf8').slice(0, 100_000));
    // The format of session 32 (the ranked objects, no lists), made from the same versions.
    const older = join(dir, 'older-format.json');
    const { lists: _lists, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(older, JSON.stringify({ ...rest, ranked: { 'passwords-common': { password: 1 } } }));
    for (const prepared of [broken, older, join(dir, 'gone.json')]) {
      const estimator = createStrengthEstimator(SETTINGS);
      estimator.usePrepared(prepared);
      try {
        assert.equal(await estimator.score('correct horse battery staple', []), 4);
        assert.equal(await estimator.score('jenniferjennifer', []), 0);
        assert.equal(estimator.madeFrom(), 'lists');
      } finally {
        await estimator.close();
      }
    }
  });

  it('is left aside when made from other package versions: the thread ranks the lists', async () => {
    const other = join(dir, 'other-versions.json');
    const data = JSON.parse(readFileSync(file, 'utf8')) as { versions: Record<string, string> };
    writeFileSync(other, JSON.stringify({ ...data, versions: { ...data.versions, core: '0.0.0-other' } }));
    const estimator = createStrengthEstimator(SETTINGS);
    estimator.usePrepared(other);
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
      const data = JSON.parse(readFileSync(written, 'utf8')) as { versions: unknown; lists: Record<string, string> };
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
      // 'close': the process has exited and its output has all been read.
      const [code] = await once(refused.child, 'close');
      rmSync(refused.data, { recursive: true, force: true });
      assert.notEqual(code, 0);
      assert.match(said, /WARD_ADMIN_PASSWORD: .*too easy to guess \(strength 0/);
      // The same start with the file's lists emptied (its versions kept): the bundle took its words
      // from the file, so the name is no longer one, and the password passes.
      for (const name of Object.keys(data.lists)) data.lists[name] = '';
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
    assert.equal(preparedDictionariesIn(pathToFileURL(`${dir}/`)), file);
    assert.equal(preparedDictionariesIn(pathToFileURL(`${tmpdir()}/ward-no-such-dir/`)), null);
  });
});
