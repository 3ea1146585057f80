import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { startNamespacedController, type NamespacedController } from '../env/namespaced-controller.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
type WithStatus = { status?: { resources?: Array<{ name: string }>; resourcesCount?: number } };

// --max-resources-status-count caps status.resources (each entry costs the API server CPU on every status write).
describe('--max-resources-status-count on the real API server', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let running: NamespacedController;

  before(async () => {
    running = await startNamespacedController(kc, 'rescap', { 'max-resources-status-count': '2' });
  });
  after(() => running?.stop());

  it('lists the first Applications by name up to the cap and counts them all', async () => {
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: running.ns.name,
      plural: 'applicationsets',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: 'capped' },
        spec: {
          generators: [{ list: { elements: [{ env: 'c' }, { env: 'a' }, { env: 'b' }] } }],
          template: {
            metadata: { name: 'capped-{{env}}' },
            spec: {
              project: 'default',
              source: { repoURL: 'https://example.com/r.git', path: '.' },
              destination: { server: 'https://kubernetes.default.svc', namespace: 'x' },
            },
          },
        },
      },
    });
    const read = (): Promise<WithStatus> =>
      custom.getNamespacedCustomObject({ ...G, namespace: running.ns.name, plural: 'applicationsets', name: 'capped' }) as Promise<WithStatus>;
    await waitFor(async () => (await read()).status?.resourcesCount === 3, { what: 'the status counting three Applications', timeoutMs: 30_000 });
    const names = (await read()).status?.resources?.map((r) => r.name);
    assert.deepEqual(names, ['capped-a', 'capped-b'], 'two entries, the first by name');
  });
});
