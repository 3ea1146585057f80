import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createRedisWatermarks } from '../../src/controller/consistency/watermarks.js';
import { sharedEnvironment } from '../env/shared-environment.js';

describe('watermarks on Redis', () => {
  const prefix = `test-wm-${randomBytes(4).toString('hex')}`;
  const watermarks = createRedisWatermarks(new Redis(sharedEnvironment().redisUrl), prefix, 60);
  after(() => watermarks.close());

  it('keeps the newest resourceVersion per cache, numerically, whatever the order the replicas raise in', async () => {
    await watermarks.raise('ns/a', { cache: 'applicationSets', resourceVersion: '900' });
    await watermarks.raise('ns/a', { cache: 'applicationSets', resourceVersion: '1000' });
    await watermarks.raise('ns/a', { cache: 'applicationSets', resourceVersion: '999' });
    await watermarks.raise('ns/a', { cache: 'secrets', resourceVersion: '5' });
    assert.deepEqual(await watermarks.read('ns/a'), { applicationSets: '1000', secrets: '5' });
    assert.deepEqual(await watermarks.read('ns/other'), {}, 'keys are separate');
  });

  it('ignores resourceVersions that are not etcd revisions, and expires the hash', async () => {
    await watermarks.raise('ns/b', { cache: 'applications', resourceVersion: '12; DROP' });
    assert.deepEqual(await watermarks.read('ns/b'), {});
    await watermarks.raise('ns/b', { cache: 'applications', resourceVersion: '7' });
    const redis = new Redis(sharedEnvironment().redisUrl);
    try {
      const ttl = await redis.ttl(`${prefix}:watermark:ns/b`);
      assert.ok(ttl > 0 && ttl <= 60, `expires (ttl ${ttl})`);
    } finally {
      redis.disconnect();
    }
  });
});
