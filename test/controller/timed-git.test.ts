import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timedGitReader } from '../../src/controller/reconcile/timed-git.js';
import { ReconcileFailure } from '../../src/controller/reconcile/failure.js';
import { TerminalError } from '../../src/model/action.js';
import type { GitReader } from '../../src/git/git-reader.js';

describe('Git timing and error reasons for metrics', () => {
  it('observes every Git call by operation, failed ones too, and passes results through', async () => {
    const observed: string[] = [];
    const git: GitReader = {
      resolveRevision: () => Promise.resolve('abc'),
      listDirectories: () => Promise.resolve(['apps']),
      listFiles: () => Promise.reject(new Error('boom')),
      readFile: () => Promise.resolve(Buffer.from('x')),
    };
    const timed = timedGitReader(git, (operation, seconds) => observed.push(`${operation}:${seconds >= 0}`));
    const signal = new AbortController().signal;
    assert.equal(await timed.resolveRevision('u', 'HEAD', signal), 'abc');
    assert.deepEqual(await timed.listDirectories('u', 'abc', signal), ['apps']);
    await assert.rejects(timed.listFiles('u', 'abc', signal), /boom/);
    assert.equal((await timed.readFile('u', 'abc', 'f', signal)).toString(), 'x');
    assert.deepEqual(observed, ['resolveRevision:true', 'listDirectories:true', 'listFiles:true', 'readFile:true']);
  });

  it('names a failed reconcile by its condition reason, else by the error class', () => {
    const failure = new ReconcileFailure({ reason: 'ParamsGenerationError', parametersGenerated: false }, new Error('x'), undefined);
    assert.equal(failure.reason, 'ParamsGenerationError');
    assert.equal(failure.message, 'x');
    assert.equal(new TerminalError('x').reason, 'TerminalError');
    assert.equal(new ReconcileFailure({ reason: 'R', parametersGenerated: true }, 'a string', undefined).message, 'a string');
  });
});
