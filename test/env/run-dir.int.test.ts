import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isAlive, reapStaleRuns } from '../../src/environment/local/run-dir.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

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

  it('never kills a process that reused a stale pid for another command', async () => {
    // A stale run whose owner is gone and whose "redis" pid now belongs to an unrelated process.
    const deadOwner = spawn('true');
    await new Promise((resolve) => deadOwner.once('exit', resolve));
    const bystander = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      const root = mkdtempSync(join(tmpdir(), 'appset-test-env', 'run-stale-'));
      mkdirSync(join(root, 'pids'));
      writeFileSync(join(root, 'owner.pid'), String(deadOwner.pid));
      writeFileSync(join(root, 'pids', 'redis.pid'), `${bystander.pid}\n/usr/bin/redis-check-rdb\n`);
      reapStaleRuns();
      assert.equal(existsSync(root), false, 'the stale run folder is removed');
      assert.ok(bystander.pid !== undefined && isAlive(bystander.pid), 'the unrelated process must survive');
    } finally {
      bystander.kill('SIGKILL');
    }
  });
});
