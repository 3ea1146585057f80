import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KubernetesObjectApi, loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';

const examplesDir = fileURLToPath(new URL('../../../examples/applicationsets/', import.meta.url));

describe('example manifests', () => {
  const kc = adminKubeConfig();
  const api = KubernetesObjectApi.makeApiClient(kc);
  let ns: TestNamespace;
  before(async () => (ns = await createTestNamespace(kc, 'examples')));
  after(() => ns.delete());

  const files = readdirSync(examplesDir).filter((f) => f.endsWith('.yaml'));
  it('has examples to check', () => assert.ok(files.length >= 3));

  for (const file of files) {
    it(`${file} is accepted by the API server`, async () => {
      const objects = loadAllYaml(readFileSync(`${examplesDir}${file}`, 'utf8')) as KubernetesObject[];
      assert.ok(objects.length > 0);
      for (const object of objects) {
        const placed = { ...object, metadata: { ...object.metadata, namespace: ns.name } };
        const created = await api.create(placed, undefined, 'All');
        assert.equal(created.metadata?.name, object.metadata?.name);
      }
    });
  }
});
