import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isAlive, reapStaleRuns } from './run-dir.js';
import { waitFor } from './wait-for.js';


/** Starts orphan-child.js and waits for the pid of the redis it started. */
async function startChild(...args: string[]): Promise<{ child: ChildProcess; orphan: { pid: number; root: string } }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./orphan-child.js', import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (data: string) => resolve(data));
    child.once('exit', (code) => reject(new Error(`orphan child exited early with ${code}`)));
  });
  return { child, orphan: JSON.parse(line) as { pid: number; root: string } };
}

describe('cleanup of environment processes', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`kills them when the owning process gets ${signal}`, async () => {
      const { child, orphan } = await startChild('clean-up');
      assert.ok(isAlive(orphan.pid));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
      await waitFor(() => !isAlive(orphan.pid), { what: `redis ${orphan.pid} to die with its owner`, timeoutMs: 5_000 });
    });
  }

  it('reaps the processes a SIGKILLed run left behind', async () => {
    const { child, orphan } = await startChild();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    assert.ok(isAlive(orphan.pid), 'redis should outlive its SIGKILLed owner until reaped');

    assert.ok(reapStaleRuns() >= 1);
    await waitFor(() => !isAlive(orphan.pid), { what: `orphaned redis ${orphan.pid} to die`, timeoutMs: 5_000 });
    assert.equal(existsSync(orphan.root), false);
  });
});
