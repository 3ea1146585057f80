import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { ApplicationSetObject } from '../../src/controller/reconcile/applicationset.js';
import { conditionsFor, mergeConditions } from '../../src/controller/status/conditions.js';
import { StatusAfterWrites } from '../../src/controller/status/status-after-writes.js';
import { createStatusWriter, type ApplicationSetStatus } from '../../src/controller/status/status-writer.js';
import { WritePool } from '../../src/controller/write/write-pool.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { sampleApplicationSet } from '../fixtures.js';

const G = { group: 'argoproj.io', version: 'v1alpha1', plural: 'applicationsets' };

describe('closing statuses written after the Application writes, against the real API server', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;

  const create = async (name: string): Promise<ApplicationSetObject> =>
    (await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, body: sampleApplicationSet(ns.name, name) })) as ApplicationSetObject;
  const read = async (name: string): Promise<ApplicationSetObject & { status?: ApplicationSetStatus }> =>
    (await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, name })) as ApplicationSetObject & { status?: ApplicationSetStatus };
  const statusOf = (appset: ApplicationSetObject): ApplicationSetStatus => ({
    conditions: mergeConditions(undefined, conditionsFor({ kind: 'success' }), new Date().toISOString()),
    resources: [{ group: 'argoproj.io', version: 'v1alpha1', kind: 'Application', name: `dev-${appset.metadata.name}`, namespace: ns.name }],
    resourcesCount: 1,
  });
  /** A write pool kept busy by one Application write that has not finished. */
  const busyPool = () => {
    const pool = new WritePool(2);
    let release!: () => void;
    const done = pool.run([() => new Promise<void>((resolve) => (release = resolve))]);
    return { pool, release: async () => (release(), await done, await tick()) };
  };
  /** Statuses through the real status writer, while one Application write keeps the pool busy; what onLost got. */
  const statusesOverBusyWrites = () => {
    const lost: unknown[] = [];
    const { pool, release } = busyPool();
    const writer = createStatusWriter(createKubeTransport(kc), { dryRun: false });
    return { statuses: new StatusAfterWrites({ writer, activity: pool, onLost: (_a, error) => lost.push(error) }), release, lost };
  };
  const settled = async (statuses: StatusAfterWrites): Promise<void> => {
    for (let i = 0; i < 200 && statuses.waitingCount > 0; i++) await tick();
    await statuses.flush(); // nothing left by now; waits for writes already sent
  };

  before(async () => {
    ns = await createControllerNamespace(kc, 'status-after');
  });
  after(() => ns.delete());

  it('stores a waiting status once the Application writes are done, not before', async () => {
    const appset = await create('waits');
    const { statuses, release, lost } = statusesOverBusyWrites();
    await statuses.write(appset, statusOf(appset), pino({ enabled: false }));
    assert.equal((await read('waits')).status?.resourcesCount, undefined, 'nothing stored while writes are busy');
    await release();
    await settled(statuses);
    const stored = await read('waits');
    assert.equal(stored.status?.resourcesCount, 1);
    assert.deepEqual(
      stored.status?.conditions?.map((c) => c.type),
      ['ErrorOccurred', 'ParametersGenerated', 'ResourcesUpToDate'],
    );
    assert.deepEqual(lost, []);
  });

  it('drops a waiting status once the ApplicationSet changed since it was computed: the API server refuses it (409)', async () => {
    const appset = await create('outran');
    const { statuses, release, lost } = statusesOverBusyWrites();
    await statuses.write(appset, statusOf(appset), pino({ enabled: false }));
    await custom.patchNamespacedCustomObject({
      ...G,
      namespace: ns.name,
      name: 'outran',
      body: [{ op: 'add', path: '/metadata/labels', value: { changed: 'yes' } }],
    });
    await release();
    await settled(statuses);
    const stored = await read('outran');
    assert.equal(stored.metadata.labels?.changed, 'yes');
    assert.equal(stored.status?.resourcesCount, undefined, 'the stale status was not stored');
    assert.deepEqual(lost, [], 'a refused stale status is not a failure: the change brings its own reconcile');
  });
});
