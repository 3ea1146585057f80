import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { namespaceObjects, startReplicas, type Replicas } from './replicas.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('--dry-run end to end: two replicas compute everything and write nothing', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;

  before(async () => {
    ns = await createControllerNamespace(kc, 'dry');
    objects = namespaceObjects(kc, ns.name);
    replicas = await startReplicas(kc, ns.name, 2, { 'dry-run': true });
  });
  after(async () => {
    await replicas.stop();
    await ns.delete();
  });

  it('creates, updates and deletes no Application, writes no status or Event, and leaves the refresh annotation', async () => {
    const template = {
      metadata: { name: 'dry-{{n}}' },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path: 'apps/{{n}}' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'default' },
      },
    };
    await objects.createAppSet(
      'dry',
      { generators: [{ list: { elements: [{ n: '1' }, { n: '2' }] } }], template },
      { annotations: { 'argocd.argoproj.io/application-set-refresh': 'true' } },
    );
    const appset = await objects.appset('dry');
    // An Application the set owns but no longer generates (a delete), and one it generates with a hand edit (an update).
    const owned = (name: string, path: string) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name,
        ownerReferences: [
          { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'dry', uid: appset.metadata.uid, controller: true, blockOwnerDeletion: true },
        ],
      },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'default' },
      },
    });
    await objects.custom.createNamespacedCustomObject({ ...objects.G, plural: 'applications', body: owned('dry-stale', 'apps/stale') });
    await objects.custom.createNamespacedCustomObject({ ...objects.G, plural: 'applications', body: owned('dry-1', 'hand/edited') });
    await waitFor(async () => (await replicas.reconciles('dry')) >= 1, { what: 'the first reconcile', timeoutMs: 30_000 });
    const first = await replicas.reconciles('dry');
    // A label change wakes the set again, now that both Applications surely are in the caches.
    await objects.custom.patchNamespacedCustomObject(
      { ...objects.G, plural: 'applicationsets', name: 'dry', body: { metadata: { labels: { touched: 'yes' } } } },
      mergePatch,
    );
    const before = { apps: await objects.apps(), appsetVersion: (await objects.appset('dry')).metadata.resourceVersion };
    await waitFor(async () => (await replicas.reconciles('dry')) > first, { what: 'the reconcile after the label change', timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const afterApps = await objects.apps();
    assert.deepEqual([...afterApps.keys()].sort(), ['dry-1', 'dry-stale'], 'nothing created, nothing deleted');
    assert.equal(afterApps.get('dry-1')?.spec.source.path, 'hand/edited', 'nothing updated');
    assert.equal(afterApps.get('dry-stale')?.metadata.deletionTimestamp, undefined);
    for (const [name, app] of afterApps) assert.equal(app.metadata.uid, before.apps.get(name)?.metadata.uid);
    const appsetAfter = await objects.appset('dry');
    assert.equal(appsetAfter.metadata.resourceVersion, before.appsetVersion, 'no status write, no annotation removal');
    assert.equal(appsetAfter.status, undefined);
    assert.equal(appsetAfter.metadata.annotations?.['argocd.argoproj.io/application-set-refresh'], 'true');
    assert.deepEqual(await objects.events(), [], 'no Event recorded');
  });
});
