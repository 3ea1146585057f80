import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiException, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { applyIntent } from '../../src/controller/plan/apply-intent.js';
import { desiredApplication } from '../../src/controller/reconcile/desired-application.js';
import type { Application, ApplicationSetIdentity } from '../../src/model/objects.js';
import { conditionsFor, mergeConditions } from '../../src/controller/status/conditions.js';
import { createApplicationWriter } from '../../src/controller/write/application-writer.js';
import { createEventRecorder } from '../../src/controller/status/event-recorder.js';
import { createStatusWriter } from '../../src/controller/status/status-writer.js';
import { FIELD_MANAGER } from '../../src/kube/field-manager.js';
import { KubeApiError } from '../../src/kube/transport/api-errors.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { sampleApplicationSet } from '../fixtures.js';
import { PausableProxy } from './pausable-proxy.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };

describe('writes against the real API server', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;
  let appset: ApplicationSetIdentity & { resourceVersion: string };

  const intentFor = (name: string, path: string, live?: Application): Application =>
    applyIntent(
      desiredApplication(
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          metadata: { name, namespace: ns.name, labels: { env: 'dev' }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
          spec: {
            project: 'default',
            source: { repoURL: 'https://git.example/a.git', path },
            destination: { server: 'https://kubernetes.default.svc', namespace: 'x' },
          },
        },
        appset,
      ),
      live,
      {},
    );
  const read = async (name: string): Promise<Application> =>
    (await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications', name })) as Application;

  before(async () => {
    ns = await createControllerNamespace(kc, 'writes');
    const created = (await custom.createNamespacedCustomObject({
      ...G,
      namespace: ns.name,
      plural: 'applicationsets',
      body: sampleApplicationSet(ns.name),
    })) as {
      metadata: { name: string; uid: string; resourceVersion: string };
    };
    appset = { name: created.metadata.name, namespace: ns.name, uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion };
  });
  after(() => ns.delete());

  it('creates with server-side apply under the one field manager, and reverts a hand edit', async () => {
    const writer = createApplicationWriter(createKubeTransport(kc), { dryRun: false });
    await writer.apply(intentFor('app-a', 'a'));
    const stored = await read('app-a');
    assert.equal((stored.spec.source as { path: string }).path, 'a');
    assert.equal((stored.metadata as { managedFields?: Array<{ manager: string; operation: string }> }).managedFields?.[0]?.manager, FIELD_MANAGER);
    assert.equal(stored.metadata.ownerReferences?.[0]?.uid, appset.uid);
    assert.deepEqual(stored.metadata.finalizers, ['resources-finalizer.argocd.argoproj.io']);

    const edited = structuredClone(stored) as unknown as { spec: { source: { path: string } } };
    edited.spec.source.path = 'hand-edit';
    await custom.replaceNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications', name: 'app-a', body: edited });
    await writer.apply(intentFor('app-a', 'a', await read('app-a')));
    assert.equal(((await read('app-a')).spec.source as { path: string }).path, 'a');
  });

  it('writes nothing in dry-run mode, yet has the API server validate the object', async () => {
    const writer = createApplicationWriter(createKubeTransport(kc), { dryRun: true });
    await writer.apply(intentFor('dry', 'd'));
    await assert.rejects(read('dry'), (e: unknown) => e instanceof ApiException && e.code === 404);
    const invalid = { ...intentFor('dry-bad', 'd'), spec: { source: {} } } as Application;
    await assert.rejects(
      writer.apply(invalid),
      (e: unknown) => e instanceof KubeApiError && e.status === 422 && /"dry-bad" is invalid: .*spec\.destination: Required/.test(e.message),
    );
  });

  it('deletes only the version it decided on', async () => {
    const writer = createApplicationWriter(createKubeTransport(kc), { dryRun: false });
    await writer.apply(intentFor('app-b', 'b'));
    const seen = await read('app-b');
    await writer.apply(intentFor('app-b', 'b2', seen)); // changes resourceVersion after the decision
    await assert.rejects(writer.delete(seen), (e: unknown) => e instanceof KubeApiError && e.status === 409);
    await writer.delete(await read('app-b'));
    const gone = await read('app-b').then(
      (app) => Boolean(app.metadata.deletionTimestamp),
      () => true,
    );
    assert.ok(gone, 'deleted, or terminating behind its finalizer');
  });

  it('keeps connections open across writes instead of one TLS connection per write', async () => {
    const server = new URL(kc.getCurrentCluster()?.server ?? '');
    const proxy = await PausableProxy.start({ host: server.hostname, port: Number(server.port) });
    try {
      const writer = createApplicationWriter(createKubeTransport(proxy.kubeConfigThrough(kc)), { dryRun: false });
      const names = Array.from({ length: 40 }, (_, i) => `pooled-${i}`);
      for (const batch of [names.slice(0, 10), names.slice(10, 20), names.slice(20, 30), names.slice(30)])
        await Promise.all(batch.map((name) => writer.apply(intentFor(name, name))));
      assert.equal((await read('pooled-39')).metadata.name, 'pooled-39');
      assert.ok(proxy.accepted <= 10, `40 writes, at most 10 at once, opened ${proxy.accepted} connections`);
    } finally {
      await proxy.close();
    }
  });

  it('sends an apply again when the server closed its pooled connection just as it was reused', async () => {
    const server = new URL(kc.getCurrentCluster()?.server ?? '');
    const proxy = await PausableProxy.start({ host: server.hostname, port: Number(server.port) });
    try {
      const writer = createApplicationWriter(createKubeTransport(proxy.kubeConfigThrough(kc)), { dryRun: false });
      await writer.apply(intentFor('reused', 'one'));
      proxy.closeOpenConnectionsOnReuse();
      await writer.apply(intentFor('reused', 'two', await read('reused')));
      assert.equal(((await read('reused')).spec.source as { path: string }).path, 'two');
      assert.equal(proxy.accepted, 2, 'the second apply went out again on a new connection');
    } finally {
      await proxy.close();
    }
  });

  it('writes status through the subresource and refuses a status computed from a stale ApplicationSet', async () => {
    const writer = createStatusWriter(createKubeTransport(kc), { dryRun: false });
    const status = { conditions: mergeConditions(undefined, conditionsFor({ kind: 'success' }), new Date().toISOString()), resources: [], resourcesCount: 0 };
    await writer.write(appset, status);
    const stored = (await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', name: appset.name })) as {
      status: typeof status;
      metadata: { resourceVersion: string };
    };
    assert.equal(stored.status.conditions.length, 3);
    assert.equal(stored.status.resourcesCount, 0);
    await assert.rejects(
      writer.write(appset, status),
      (e: unknown) => e instanceof KubeApiError && e.status === 409,
      'the first write moved the resourceVersion',
    );
  });

  it('records Events on the ApplicationSet and counts repeats instead of piling them up', async () => {
    const recorder = createEventRecorder(createKubeTransport(kc));
    const subject = { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', namespace: ns.name, name: appset.name, uid: appset.uid };
    const event = { type: 'Warning' as const, reason: 'DeletionRefused', message: 'refusing to delete 3 of 4 Applications' };
    await recorder.record(subject, event);
    await recorder.record(subject, event);
    const events = await kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns.name, fieldSelector: `involvedObject.uid=${appset.uid}` });
    assert.equal(events.items.length, 1);
    assert.equal(events.items[0]?.count, 2);
    assert.equal(events.items[0]?.reason, 'DeletionRefused');
  });
});
