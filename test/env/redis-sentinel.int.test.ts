// The Sentinel group of the failover tests: a master, its replica and three Sentinels agree on who is master,
// and a group that cannot start fails with the program it could not run, never by skipping.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { replicationInfo, SENTINEL_MASTER_NAME, SentinelGroup, query } from '../../src/environment/local/redis-sentinel.js';

describe('Redis Sentinel group of the test environment', () => {
  const run = createRunDir();
  let group: SentinelGroup | undefined;
  after(async () => {
    await group?.stop();
    rmSync(run.root, { recursive: true, force: true });
  });

  it('runs a master, one replica and three Sentinels that agree on the master', async () => {
    group = await SentinelGroup.start(run);
    const { master, replica } = await group.settled();
    assert.equal(master, group.nodes[0]);
    assert.equal((await replicationInfo(replica.port))['master_port'], String(master.port));
    for (const sentinel of group.sentinels) {
      const reply = (await query(sentinel.port, ['SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME])) as string[];
      assert.deepEqual(reply, ['127.0.0.1', String(master.port)]);
    }
    assert.equal(group.addresses.split(',').length, 3);
  });

  it('fails loudly, naming the program, when redis-server cannot be run', async () => {
    const path = process.env['PATH'];
    const elsewhere = createRunDir();
    process.env['PATH'] = '/nonexistent';
    try {
      await assert.rejects(SentinelGroup.start(elsewhere), /cannot start redis-server/);
    } finally {
      process.env['PATH'] = path;
      rmSync(elsewhere.root, { recursive: true, force: true });
    }
  });
});
