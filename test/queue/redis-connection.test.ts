import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedisClient, queuePrefix, redact, type RedisConnectionOptions } from '../../src/queue/redis-connection.js';

// Clients are created with lazyConnect, so nothing here opens a socket.
describe('redis connection options', () => {
  it('turns on TLS for rediss:// URLs and keeps plain redis:// without it', () => {
    const tls = createRedisClient({ url: 'rediss://user:secret@redis.example:6380/2' }, 'producer', true);
    assert.ok(tls.options.tls, 'rediss:// enables TLS');
    assert.equal(tls.options.port, 6380);
    assert.equal(tls.options.db, 2);
    const plain = createRedisClient({ url: 'redis://127.0.0.1:6379' }, 'producer', true);
    assert.equal(plain.options.tls, undefined);
  });

  it('gives workers maxRetriesPerRequest null and producers a bounded retry count', () => {
    assert.equal(createRedisClient({ url: 'redis://h:1' }, 'worker', true).options.maxRetriesPerRequest, null);
    assert.equal(createRedisClient({ url: 'redis://h:1' }, 'producer', true).options.maxRetriesPerRequest, 20);
  });

  it('connects through Sentinel with the master name, TLS optional', () => {
    const client = createRedisClient({ sentinel: { sentinels: [{ host: 's1', port: 26379 }], name: 'mymaster', tls: true } }, 'worker', true);
    assert.equal(client.options.name, 'mymaster');
    assert.deepEqual(client.options.sentinels, [{ host: 's1', port: 26379 }]);
    assert.equal(client.options.enableTLSForSentinelMode, true);
  });

  it('follows a Sentinel failover: listens for +switch-master and reconnects on READONLY or UNBLOCKED', () => {
    const client = createRedisClient({ sentinel: { sentinels: [{ host: 's1', port: 26379 }], name: 'mymaster' } }, 'worker', true);
    assert.equal(client.options.failoverDetector, true);
    const reconnect = client.options.reconnectOnError;
    assert.ok(reconnect);
    assert.equal(reconnect(new Error("READONLY You can't write against a read only replica.")), 2, 'reconnect and resend');
    assert.equal(reconnect(new Error('UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)')), 2);
    assert.equal(reconnect(new Error('ERR unknown command')), false);
    const plain = createRedisClient({ url: 'redis://h:1' }, 'worker', true);
    assert.equal(plain.options.failoverDetector, false, 'a plain URL has no Sentinels to listen to');
  });

  it('refuses Redis Cluster, which is not a supported mode', () => {
    const cluster = { cluster: { nodes: [{ host: 'n1', port: 7000 }] } } as unknown as RedisConnectionOptions;
    assert.throws(() => createRedisClient(cluster, 'worker', true), /redis cluster is not supported/);
    assert.equal(queuePrefix(), 'appset');
    assert.throws(() => queuePrefix('x{tag}'), /may only contain/);
  });

  it('rejects ambiguous, missing or malformed connection options, without echoing passwords', () => {
    assert.throws(() => createRedisClient({}, 'worker', true), /exactly one of url, sentinel; got none/);
    assert.throws(
      () => createRedisClient({ url: 'redis://h:1', sentinel: { sentinels: [{ host: 'h', port: 1 }], name: 'm' } }, 'worker', true),
      /got url, sentinel/,
    );
    assert.throws(
      () => createRedisClient({ url: 'http://u:hunter2@h:1' }, 'worker', true),
      (error: Error) => /redis:\/\/ or rediss:\/\//.test(error.message) && !error.message.includes('hunter2'),
    );
    assert.throws(() => queuePrefix('a:b'), /may only contain/);
    assert.equal(redact('rediss://user:pw@h:1'), 'rediss://user:***@h:1');
  });
});
