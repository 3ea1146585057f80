import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { testKubeConfig } from './test-kube-config.js';
import { TestEnvironment } from '../../src/environment/local/environment.js';
import { isAlive } from '../../src/environment/local/run-dir.js';

describe('a private test environment: start, restart each part, stop', () => {
  let env: TestEnvironment;
  before(async () => (env = await TestEnvironment.start()));
  after(() => env.stop());

  it('serves the API again after kube-apiserver is killed and restarted', async () => {
    const core = testKubeConfig(env.apiServer.kubeconfigPath).makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'before-restart' } } });
    await env.apiServer.process.kill();
    await assert.rejects(core.readNamespace({ name: 'before-restart' }));
    await env.apiServer.process.start();
    await env.apiServer.ready();
    const ns = await core.readNamespace({ name: 'before-restart' });
    assert.equal(ns.metadata?.name, 'before-restart');
  });

  it('keeps etcd data across an etcd restart and compacts on request', async () => {
    await env.etcd.process.restart();
    await env.etcd.ready();
    await env.apiServer.ready();
    const revision = await env.etcd.compact();
    assert.ok(revision > 1);
  });

  it('answers on the same Redis URL after a Redis restart', async () => {
    const redis = new Redis(env.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await env.redis.process.restart();
      await env.redis.ready();
      await redis.connect();
      assert.equal(await redis.ping(), 'PONG');
    } finally {
      redis.disconnect();
    }
  });

  it('leaves no process running after stop', async () => {
    const pids = [env.etcd, env.apiServer, env.controllerManager, env.redis].map((part) => part.process.pid);
    assert.ok(
      pids.every((pid) => pid !== undefined && isAlive(pid)),
      'every part runs before stop',
    );
    await env.stop();
    assert.deepEqual(
      pids.filter((pid) => pid !== undefined && isAlive(pid)),
      [],
    );
  });
});
