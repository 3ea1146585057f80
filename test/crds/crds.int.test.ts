import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiException, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { installCrds } from '../../src/kube/install-crds.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { sampleApplication, sampleApplicationSet } from '../fixtures.js';

/** Creates `object` and returns the HTTP status the API server answered with. */
async function createStatus(api: KubernetesObjectApi, object: KubernetesObject): Promise<{ status: number; message: string }> {
  try {
    await api.create(object);
    return { status: 201, message: '' };
  } catch (error) {
    if (error instanceof ApiException) return { status: error.code, message: String(error.body) };
    throw error;
  }
}

function without<T extends { spec: Record<string, unknown> }>(object: T, field: string): T {
  const copy = structuredClone(object);
  delete copy.spec[field];
  return copy;
}

describe('CRDs on a real API server', () => {
  const kc = adminKubeConfig();
  const api = KubernetesObjectApi.makeApiClient(kc);
  let ns: TestNamespace;

  before(async () => {
    // The runner installed them already; installing again must be a harmless no-op.
    const names = await installCrds(createKubeTransport(kc));
    assert.deepEqual(names.sort(), ['applications.argoproj.io', 'applicationsets.argoproj.io', 'appprojects.argoproj.io']);
    ns = await createTestNamespace(kc, 'crds');
  });
  after(() => ns.delete());

  it('accepts a valid ApplicationSet and Application', async () => {
    assert.equal((await createStatus(api, sampleApplicationSet(ns.name))).status, 201);
    assert.equal((await createStatus(api, sampleApplication(ns.name))).status, 201);
    const stored = await api.read({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'guestbook', namespace: ns.name } });
    assert.equal((stored as unknown as ReturnType<typeof sampleApplicationSet>).spec.generators instanceof Array, true);
  });

  for (const field of ['generators', 'template']) {
    it(`rejects an ApplicationSet without spec.${field}`, async () => {
      const object = without(sampleApplicationSet(ns.name, `no-${field}`), field);
      const { status, message } = await createStatus(api, object);
      assert.equal(status, 422);
      assert.match(message, new RegExp(`spec\\.${field}: Required value`));
    });
  }

  for (const field of ['project', 'destination']) {
    it(`rejects an Application without spec.${field}`, async () => {
      const { status, message } = await createStatus(api, without(sampleApplication(ns.name, `no-${field}`), field));
      assert.equal(status, 422);
      assert.match(message, new RegExp(`spec\\.${field}: Required value`));
    });
  }

  it('rejects an unknown applicationsSync policy', async () => {
    const object = sampleApplicationSet(ns.name, 'bad-policy');
    object.spec.syncPolicy = { applicationsSync: 'delete-everything' };
    assert.equal((await createStatus(api, object)).status, 422);
  });

  it('preserves unknown fields of the embedded Application spec', async () => {
    const object = sampleApplicationSet(ns.name, 'preserved');
    (object.spec.template as { spec: Record<string, unknown> }).spec.ignoreDifferences = [{ kind: 'Deployment', jsonPointers: ['/spec/replicas'] }];
    await api.create(object);
    const stored = (await api.read({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'preserved', namespace: ns.name },
    })) as unknown as typeof object;
    assert.deepEqual((stored.spec.template as { spec: Record<string, unknown> }).spec.ignoreDifferences, [
      { kind: 'Deployment', jsonPointers: ['/spec/replicas'] },
    ]);
  });
});
