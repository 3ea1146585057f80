import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { preciseNow } from './worker-config.js';

// The multi-process tests order runs recorded by different processes by these times; a clock that differs
// between processes makes back-to-back runs look like overlaps (a red CI run in session 16).
describe('preciseNow across processes', () => {
  it('puts a child process’s reading between the parent’s readings before and after asking for it', async () => {
    const clock = new URL('./worker-config.js', import.meta.url).href;
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `const { preciseNow } = await import(${JSON.stringify(clock)}); process.on('message', () => process.send(preciseNow()));`],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    // A child that dies (say, cannot load the module) fails the test instead of leaving it waiting.
    const died = once(child, 'exit').then(([code]) => Promise.reject(new Error(`the child process exited with ${String(code)}`)));
    died.catch(() => undefined);
    try {
      const violations: string[] = [];
      for (let i = 0; i < 50; i++) {
        const before = preciseNow();
        const answer = Promise.race([once(child, 'message'), died]);
        child.send('now?');
        const [theirs] = (await answer) as [number];
        const after = preciseNow();
        if (theirs < before || theirs > after) violations.push(`${theirs} outside [${before}, ${after}]`);
      }
      assert.deepEqual(violations, []);
    } finally {
      child.kill();
    }
  });
});
