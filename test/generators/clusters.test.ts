import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { clustersGenerator } from '../../src/generators/clusters.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { clusterSecret, testContext } from './test-context.js';

const prod = clusterSecret(
  'prod-secret',
  { name: 'Prod_EU', server: 'https://prod.example', config: '{}', project: 'team-a' },
  { env: 'prod', region: 'eu' },
  { owner: 'ops' },
);
const staging = clusterSecret('staging-secret', { name: 'staging', server: 'https://staging.example', config: '{}' }, { env: 'staging' });
const notACluster: V1Secret = {
  metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
  data: { url: Buffer.from('x').toString('base64') },
};

async function run(spec: unknown, secrets: V1Secret[] = [prod, staging, notACluster]) {
  return clustersGenerator.generate(spec, testContext({ secrets }));
}

describe('clusters generator', () => {
  it('gives every param Argo CD documents, the local cluster first when the selector is empty', async () => {
    const out = await run({});
    assert.deepEqual(out, [
      // As Argo CD: no metadata for the local cluster, and annotations only when the Secret has some.
      { name: 'in-cluster', nameNormalized: 'in-cluster', server: 'https://kubernetes.default.svc', project: '' },
      {
        name: 'Prod_EU',
        nameNormalized: 'prod-eu',
        server: 'https://prod.example',
        project: 'team-a',
        metadata: { labels: { 'argocd.argoproj.io/secret-type': 'cluster', env: 'prod', region: 'eu' }, annotations: { owner: 'ops' } },
      },
      {
        name: 'staging',
        nameNormalized: 'staging',
        server: 'https://staging.example',
        project: '',
        metadata: { labels: { 'argocd.argoproj.io/secret-type': 'cluster', env: 'staging' } },
      },
    ]);
  });
  it('a null spec (clusters: {}) behaves as an empty selector', async () => {
    assert.equal((await run(null)).length, 3);
  });
  it('no local cluster when a Secret already has its server', async () => {
    const local = clusterSecret('local', { name: 'my-local', server: 'https://kubernetes.default.svc' });
    const names = (await run({}, [local, staging])).map((p) => p.name);
    assert.deepEqual(names, ['my-local', 'staging']);
  });
  it('matchLabels selects and drops the local cluster', async () => {
    assert.deepEqual(
      (await run({ selector: { matchLabels: { env: 'prod' } } })).map((p) => p.name),
      ['Prod_EU'],
    );
  });
  const expressions: [string, unknown, string[]][] = [
    ['In', { key: 'env', operator: 'In', values: ['prod', 'staging'] }, ['Prod_EU', 'staging']],
    ['NotIn', { key: 'env', operator: 'NotIn', values: ['prod'] }, ['staging']],
    ['Exists', { key: 'region', operator: 'Exists' }, ['Prod_EU']],
    ['DoesNotExist', { key: 'region', operator: 'DoesNotExist' }, ['staging']],
  ];
  for (const [op, expression, expected] of expressions) {
    it(`matchExpressions ${op}`, async () => {
      assert.deepEqual(
        (await run({ selector: { matchExpressions: [expression] } })).map((p) => p.name),
        expected,
      );
    });
  }
  it('refuses an unknown operator', async () => {
    await assert.rejects(run({ selector: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] } }), GeneratorSpecError);
  });
  it('values are templated with the cluster params and exposed as values.*', async () => {
    const out = await run({
      selector: { matchLabels: { env: 'prod' } },
      values: { revision: '{{metadata.labels.env}}-branch', name: 'app-{{nameNormalized}}', unknown: '{{nope}}' },
    });
    assert.deepEqual(out[0]?.values, { revision: 'prod-branch', name: 'app-prod-eu', unknown: '{{nope}}' });
  });
  it('a cluster Secret without a server is an error naming it', async () => {
    await assert.rejects(run({}, [clusterSecret('broken', { name: 'x' })]), /argocd\/broken has no "server"/);
  });
  it('a Secret without a name uses its server as the name', async () => {
    const out = await run({ selector: { matchLabels: { env: 'x' } } }, [clusterSecret('s', { server: 'https://s.example' }, { env: 'x' })]);
    assert.equal(out[0]?.name, 'https://s.example');
  });
});
