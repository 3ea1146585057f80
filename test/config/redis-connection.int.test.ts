import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { redisConnectionOf } from '../../src/config/redis-connection-config.js';
import { createRedisClient } from '../../src/queue/redis-connection.js';
import { freePort } from '../../src/environment/local/free-port.js';
import { ManagedProcess } from '../../src/environment/local/managed-process.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

/** PING through the connection the controller would make from these settings. */
async function pingWith(env: Record<string, string>): Promise<string> {
  const connection = redisConnectionOf(readControllerConfig({}, env, '/nonexistent'));
  assert.ok(connection);
  const client = createRedisClient(
    { ...connection, redisOptions: { ...connection.redisOptions, maxRetriesPerRequest: 0, retryStrategy: () => null, sentinelRetryStrategy: () => null } },
    'producer',
  );
  client.on('error', () => undefined);
  try {
    return await client.ping();
  } finally {
    client.disconnect();
  }
}

describe('Redis password from its own variable, against the real Redis', () => {
  const user = `appset-${randomBytes(4).toString('hex')}`;
  const password = `p@ss:/${randomBytes(8).toString('hex')}`;
  let admin: Redis;
  let withUser: string;

  before(async () => {
    admin = new Redis(sharedEnvironment().redisUrl);
    await admin.call('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '&*', '+@all');
    const url = new URL(sharedEnvironment().redisUrl);
    url.username = user;
    withUser = url.href;
  });
  after(async () => {
    await admin.call('ACL', 'DELUSER', user);
    admin.disconnect();
  });

  it('connects with APPSET_REDIS_PASSWORD (characters a URL would need escaped included)', async () => {
    assert.equal(await pingWith({ APPSET_REDIS_URL: withUser, APPSET_REDIS_PASSWORD: password }), 'PONG');
  });

  it('is refused with a wrong one, and overrides a wrong one in the URL', async () => {
    await assert.rejects(pingWith({ APPSET_REDIS_URL: withUser, APPSET_REDIS_PASSWORD: 'wrong' }), /WRONGPASS|invalid username-password/i);
    const wrongInUrl = new URL(withUser);
    wrongInUrl.password = 'wrong';
    assert.equal(await pingWith({ APPSET_REDIS_URL: wrongInUrl.href, APPSET_REDIS_PASSWORD: password }), 'PONG');
  });
});

describe('Redis through a real Sentinel', () => {
  const master = `appset-${randomBytes(4).toString('hex')}`;
  let sentinel: ManagedProcess;
  let port: number;

  before(async () => {
    // redis-server in Sentinel mode, watching the shared Redis as its (replica-less) master.
    const dir = mkdtempSync(join(tmpdir(), 'sentinel-'));
    port = await freePort();
    const redisPort = new URL(sharedEnvironment().redisUrl).port;
    writeFileSync(join(dir, 'sentinel.conf'), `port ${port}\nbind 127.0.0.1\ndir ${dir}\nsentinel monitor ${master} 127.0.0.1 ${redisPort} 1\n`);
    sentinel = new ManagedProcess('sentinel', {
      command: 'redis-server',
      args: [join(dir, 'sentinel.conf'), '--sentinel'],
      logFile: join(dir, 'sentinel.log'),
    });
    await sentinel.start();
    await waitFor(
      async () => {
        const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on('error', () => undefined);
        try {
          return ((await probe.call('SENTINEL', 'get-master-addr-by-name', master)) as string[] | null)?.[1] === redisPort;
        } finally {
          probe.disconnect();
        }
      },
      { what: 'the Sentinel to know its master', timeoutMs: 20_000 },
    );
  });
  after(async () => {
    await sentinel.stop();
  });

  it('finds the master through APPSET_REDIS_SENTINELS and APPSET_REDIS_SENTINEL_MASTER', async () => {
    assert.equal(await pingWith({ APPSET_REDIS_SENTINELS: `127.0.0.1:${port}`, APPSET_REDIS_SENTINEL_MASTER: master }), 'PONG');
  });

  it('fails for a master the Sentinel does not know', async () => {
    await assert.rejects(pingWith({ APPSET_REDIS_SENTINELS: `127.0.0.1:${port}`, APPSET_REDIS_SENTINEL_MASTER: 'unknown-master' }));
  });
});
