import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cluster, type Redis } from 'ioredis';
import { createRedisClient, queuePrefix, redact } from '../../src/queue/redis-connection.js';

// Clients are created with lazyConnect, so nothing here opens a socket.
describe('redis connection options', () => {
  it('turns on TLS for rediss:// URLs and keeps plain redis:// without it', () => {
    const tls = createRedisClient({ url: 'rediss://user:secret@redis.example:6380/2' }, 'producer', true) as Redis;
    assert.ok(tls.options.tls, 'rediss:// enables TLS');
    assert.equal(tls.options.port, 6380);
    assert.equal(tls.options.db, 2);
    const plain = createRedisClient({ url: 'redis://127.0.0.1:6379' }, 'producer', true) as Redis;
    assert.equal(plain.options.tls, undefined);
  });

  it('gives workers maxRetriesPerRequest null and producers a bounded retry count', () => {
    assert.equal((createRedisClient({ url: 'redis://h:1' }, 'worker', true) as Redis).options.maxRetriesPerRequest, null);
    assert.equal((createRedisClient({ url: 'redis://h:1' }, 'producer', true) as Redis).options.maxRetriesPerRequest, 20);
  });

  it('connects through Sentinel with the master name, TLS optional', () => {
    const client = createRedisClient({ sentinel: { sentinels: [{ host: 's1', port: 26379 }], name: 'mymaster', tls: true } }, 'worker', true) as Redis;
    assert.equal(client.options.name, 'mymaster');
    assert.deepEqual(client.options.sentinels, [{ host: 's1', port: 26379 }]);
    assert.equal(client.options.enableTLSForSentinelMode, true);
  });

  it('creates a Cluster client and hash-tags the prefix so a queue lives in one slot', () => {
    const options = { cluster: { nodes: [{ host: 'n1', port: 7000 }] } };
    assert.ok(createRedisClient(options, 'worker', true) instanceof Cluster);
    assert.equal(queuePrefix(options), '{appset}');
    assert.equal(queuePrefix(options, 'x{tag}'), 'x{tag}');
    assert.equal(queuePrefix({ url: 'redis://h:1' }), 'appset');
  });

  it('rejects ambiguous, missing or malformed connection options, without echoing passwords', () => {
    assert.throws(() => createRedisClient({}, 'worker', true), /exactly one of url, sentinel, cluster; got none/);
    assert.throws(() => createRedisClient({ url: 'redis://h:1', cluster: { nodes: [{ host: 'h', port: 1 }] } }, 'worker', true), /got url, cluster/);
    assert.throws(
      () => createRedisClient({ url: 'http://u:hunter2@h:1' }, 'worker', true),
      (error: Error) => /redis:\/\/ or rediss:\/\//.test(error.message) && !error.message.includes('hunter2'),
    );
    assert.throws(() => queuePrefix({ url: 'redis://h:1' }, 'a:b'), /may only contain/);
    assert.equal(redact('rediss://user:pw@h:1'), 'rediss://user:***@h:1');
  });
});
