import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { startNamespacedController, type NamespacedController } from '../env/namespaced-controller.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
type Labelled = { metadata: { labels?: Record<string, string> } };

// Server-side apply removes a field whose only manager stops applying it. A preserved label that the
// template itself set is owned by the controller alone, so the controller must keep applying it.
describe('preservedFields on the real API server', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let running: NamespacedController;
  const app = async (): Promise<Labelled | undefined> =>
    (custom.getNamespacedCustomObject({ ...G, namespace: running.ns.name, plural: 'applications', name: 'kept-a' }) as Promise<Labelled>).catch(
      () => undefined,
    );

  before(async () => {
    running = await startNamespacedController(kc, 'preserved');
  });
  after(() => running?.stop());

  it('a preserved label the template set survives an update of the Application', async () => {
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: running.ns.name,
      plural: 'applicationsets',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: 'kept' },
        spec: {
          preservedFields: { labels: ['team'] },
          generators: [{ list: { elements: [{ env: 'a' }] } }],
          template: {
            metadata: { name: 'kept-{{env}}', labels: { team: 'red' } },
            spec: {
              project: 'default',
              source: { repoURL: 'https://example.com/r.git', path: '.' },
              destination: { server: 'https://kubernetes.default.svc', namespace: 'x' },
            },
          },
        },
      },
    });
    await waitFor(async () => (await app())?.metadata.labels?.team === 'red', { what: 'the Application with its label', timeoutMs: 30_000 });
    await custom.patchNamespacedCustomObject(
      {
        ...G,
        namespace: running.ns.name,
        plural: 'applicationsets',
        name: 'kept',
        body: { spec: { template: { metadata: { labels: { team: 'red', wave: '2' } } } } },
      },
      mergePatch,
    );
    await waitFor(async () => (await app())?.metadata.labels?.wave === '2', { what: 'the update to reach the Application', timeoutMs: 30_000 });
    assert.equal((await app())?.metadata.labels?.team, 'red', 'the preserved label the template set is still there');
  });
});
