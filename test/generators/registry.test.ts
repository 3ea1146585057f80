import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGeneratorRegistry, minimumRequeue, runGenerators } from '../../src/generators/registry.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { testContext } from './test-context.js';

const registry = createGeneratorRegistry();

describe('generator registry', () => {
  it('is explicit and keyed by Argo CD generator names', () => {
    assert.deepEqual(registry.names, ['list', 'clusters', 'git', 'pullRequest', 'scmProvider', 'plugin', 'clusterDecisionResource', 'matrix', 'merge']);
  });
  it('a post-selector filters any generator on its flattened params', async () => {
    const entry = {
      list: {
        elements: [
          { env: 'prod', meta: { tier: 'gold' } },
          { env: 'dev', meta: { tier: 'gold' } },
          { env: 'prod', meta: { tier: 'iron' } },
        ],
      },
      selector: { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'meta.tier', operator: 'In', values: ['gold'] }] },
    };
    assert.deepEqual(await registry.generateEntry(entry, testContext(), 'g'), [{ env: 'prod', meta: { tier: 'gold' } }]);
  });
  const bad: [string, unknown, RegExp][] = [
    ['no generator', { selector: {} }, /exactly one generator.*found none/],
    ['two generators', { list: {}, clusters: {} }, /found list, clusters/],
    ['unknown generator', { bogus: {} }, /unknown generator/],
    ['a clusterDecisionResource generator without configMapRef', { clusterDecisionResource: {} }, /configMapRef: must be a non-empty string/],
    ['a pull request generator naming no provider', { pullRequest: {} }, /pullRequest: must name exactly one provider/],
    [
      'an SCM provider Argo CD has and this controller refuses by name',
      { scmProvider: { awsCodeCommit: {} } },
      /awsCodeCommit: AWS CodeCommit is not supported/,
    ],
    ['generator-level template', { list: {}, template: {} }, /template overrides are not supported/],
  ];
  for (const [name, entry, message] of bad) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(
        registry.generateEntry(entry, testContext(), 'spec.generators[0]'),
        (e: unknown) => e instanceof GeneratorSpecError && message.test(e.message),
      );
    });
  }
  it('runGenerators concatenates entries and requeues at the smallest interval', async () => {
    const result = await runGenerators(registry, [{ list: { elements: [{ a: '1' }] } }, { list: { elements: [{ b: '2' }] } }], testContext());
    assert.deepEqual(result, { paramSets: [{ a: '1' }, { b: '2' }], requeueAfterMs: undefined });
    const git = (s?: number) => ({ git: { repoURL: 'https://x/r', files: [{ path: '*.json' }], ...(s === undefined ? {} : { requeueAfterSeconds: s }) } });
    assert.equal(registry.requeueAfterMs(git(), 'g'), 180_000);
    assert.equal(registry.requeueAfterMs(git(0), 'g'), 0);
    assert.equal(minimumRequeue([undefined, 180_000, 60_000]), 60_000);
    assert.equal(minimumRequeue([undefined]), undefined);
  });
});
