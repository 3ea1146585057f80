import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createRedisFingerprints } from '../../src/controller/consistency/input-fingerprints.js';
import { sharedEnvironment } from '../env/shared-environment.js';

describe('input fingerprints shared through Redis', () => {
  const client = new Redis(sharedEnvironment().redisUrl);
  after(() => client.quit());

  it('keeps what one replica writes for every replica, drops removed entries and ignores foreign values', async () => {
    const prefix = `appset:fp-${randomBytes(4).toString('hex')}`;
    const writer = createRedisFingerprints(client, prefix);
    const reader = createRedisFingerprints(client, prefix);
    await writer.write('argocd/a/uid-a', { fingerprint: 'f1', desiredNames: ['a-1', 'a-2'] });
    await writer.write('argocd/b/uid-b', { fingerprint: 'f2', desiredNames: [] });
    await client.hset(`${prefix}:input-fingerprints`, 'argocd/c/uid-c', 'not json', 'argocd/d/uid-d', '{"fingerprint":1}');
    assert.deepEqual(
      await reader.readAll(),
      new Map([
        ['argocd/a/uid-a', { fingerprint: 'f1', desiredNames: ['a-1', 'a-2'] }],
        ['argocd/b/uid-b', { fingerprint: 'f2', desiredNames: [] }],
      ]),
    );
    await writer.remove('argocd/a/uid-a');
    assert.deepEqual([...(await reader.readAll()).keys()], ['argocd/b/uid-b']);
  });
});
