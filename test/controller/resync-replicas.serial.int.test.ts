import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const RESYNC_MS = 2_000;
const WINDOW_MS = 10_000;

/** The sum of one series in this replica's metrics. */
async function metric(controller: RunningController, series: string): Promise<number> {
  const text = await controller.metricsRegistry.metrics();
  return [...text.matchAll(new RegExp(`^${series}(?:\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Reconciles this replica has run. */
const reconciles = (controller: RunningController): Promise<number> => metric(controller, 'argocd_appset_reconcile_count');

/** Times this replica looked at a key for the resync: a reconcile, or a key the resync left out because nothing changed. */
const looks = async (controller: RunningController): Promise<number> =>
  (await reconciles(controller)) + (await metric(controller, 'appset_resync_unchanged_total'));

// The full resync is a safety net: with several replicas on one Redis it must cost one reconcile of each
// ApplicationSet per period, not one per replica (or two, when the cache's replay added the key again).
describe('the periodic resync across replicas', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;
  const controllers: RunningController[] = [];

  before(async () => {
    ns = await createControllerNamespace(kc, 'resync-replicas');
  });
  after(async () => {
    await Promise.all(controllers.map((c) => c.stop(5_000)));
    await ns?.delete();
  });

  const configFor = (redis: boolean) =>
    readControllerConfig({
      namespace: ns.name,
      'listen-address': '127.0.0.1:0',
      'git-cache-dir': mkdtempSync(join(tmpdir(), 'resync-replicas-git-')),
      'resync-period': `${RESYNC_MS / 1000}s`,
      ...(redis ? { 'redis-url': sharedEnvironment().redisUrl } : {}),
    });
  const appset = (name: string) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name },
    spec: {
      generators: [{ list: { elements: [{ env: name }] } }],
      template: {
        metadata: { name: '{{env}}-app' },
        spec: {
          project: 'default',
          source: { repoURL: 'https://example.com/r.git', path: '.' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'x' },
        },
      },
    },
  });
  const converged = (name: string) =>
    waitFor(
      async () => {
        try {
          await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications', name: `${name}-app` });
          return true;
        } catch {
          return false;
        }
      },
      { what: `${name}-app`, timeoutMs: 30_000 },
    );

  it('two replicas on Redis reconcile each ApplicationSet once per period between them', async () => {
    const queueName = `resync-${randomBytes(4).toString('hex')}`;
    const config = configFor(true);
    const pair = [
      await startController(config, kc, pino({ level: 'silent' }), { queueName }),
      await startController(config, kc, pino({ level: 'silent' }), { queueName }),
    ];
    controllers.push(...pair);
    await Promise.all(pair.map((c) => c.ready));
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: appset('shared') });
    await converged('shared');
    const sum = async (read: (c: RunningController) => Promise<number>) => (await Promise.all(pair.map(read))).reduce((a, b) => a + b, 0);
    const before = await sum(looks);
    const reconcilesBefore = await sum(reconciles);
    const began = performance.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const ran = (await sum(looks)) - before;
    // One claim per 0.9 period, plus one in flight at either end of the window.
    const most = Math.floor((performance.now() - began) / (0.9 * RESYNC_MS)) + 2;
    assert.ok(ran >= 2, `the resync looked at the ApplicationSet ${ran} times in ${WINDOW_MS} ms`);
    assert.ok(ran <= most, `two replicas looked at one ApplicationSet ${ran} times in ${WINDOW_MS} ms with a ${RESYNC_MS} ms resync; at most ${most} expected`);
    // Nothing changed: once a full run has shared its inputs' fingerprint, the resync leaves the key out of the queue.
    const reconciled = (await sum(reconciles)) - reconcilesBefore;
    assert.ok(reconciled <= 2, `the resync reconciled an unchanged ApplicationSet ${reconciled} times; the sieve should have left it out`);
    // Every pass is timed, on whichever replica claimed it.
    const passes = await sum((c) => metric(c, 'appset_resync_pass_seconds_count'));
    assert.ok(passes >= 1, `${passes} timed resync passes for ${ran} looks`);
    await Promise.all(pair.map((c) => c.stop(5_000)));
    controllers.length = 0;
  });

  it('one replica with the in-memory queue still resyncs, through its cache', async () => {
    const single = await startController(configFor(false), kc, pino({ level: 'silent' }));
    controllers.push(single);
    await single.ready;
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: appset('alone') });
    await converged('alone');
    const before = await reconciles(single);
    await waitFor(async () => (await reconciles(single)) >= before + 2, { what: 'two resyncs', timeoutMs: 4 * RESYNC_MS + 5_000 });
  });
});
