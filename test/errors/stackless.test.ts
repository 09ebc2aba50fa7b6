// Speed-up `stackless_client_errors` (src/errors/ward-error.ts): with it, a refusal (below 500)
// captures no stack; a server error keeps its stack either way, and the process's stack limit is
// left as it was.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { refusalStacks, WardError } from '../../src/errors/ward-error.js';

const frames = (e: Error) => (e.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('refusals without a stack', () => {
  const before = refusalStacks.skip;
  afterEach(() => {
    refusalStacks.skip = before;
  });

  it('a refusal has no stack frames when the speed-up is on, and frames when it is off', () => {
    refusalStacks.skip = true;
    const tuned = new WardError('malformedUrl');
    assert.equal(frames(tuned), 0);
    assert.match(tuned.stack ?? '', /Error/);
    refusalStacks.skip = false;
    assert.ok(frames(new WardError('malformedUrl')) > 0);
  });

  it('a server error keeps its stack, and Error.stackTraceLimit is restored', () => {
    refusalStacks.skip = true;
    const limit = Error.stackTraceLimit;
    assert.ok(frames(new WardError('unexpected')) > 0);
    new WardError('malformedUrl');
    assert.equal(Error.stackTraceLimit, limit);
    assert.ok(frames(new Error('plain')) > 0);
  });
});
