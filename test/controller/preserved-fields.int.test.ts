import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
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
  let ns: TestNamespace;
  let controller: RunningController;
  const app = async (): Promise<Labelled | undefined> =>
    (custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications', name: 'kept-a' }) as Promise<Labelled>).catch(() => undefined);

  before(async () => {
    ns = await createControllerNamespace(kc, 'preserved');
    const config = readControllerConfig({
      namespace: ns.name,
      'listen-address': '127.0.0.1:0',
      'git-cache-dir': mkdtempSync(join(tmpdir(), 'preserved-git-')),
    });
    controller = await startController(config, kc, pino({ level: 'silent' }));
    await controller.ready;
  });
  after(async () => {
    await controller?.stop(5_000);
    await ns?.delete();
  });

  it('a preserved label the template set survives an update of the Application', async () => {
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: ns.name,
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
      { ...G, namespace: ns.name, plural: 'applicationsets', name: 'kept', body: { spec: { template: { metadata: { labels: { team: 'red', wave: '2' } } } } } },
      mergePatch,
    );
    await waitFor(async () => (await app())?.metadata.labels?.wave === '2', { what: 'the update to reach the Application', timeoutMs: 30_000 });
    assert.equal((await app())?.metadata.labels?.team, 'red', 'the preserved label the template set is still there');
  });
});
