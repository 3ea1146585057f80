import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runDiff, twoCommitRepo } from './diff-harness.js';

/** A RollingSync ApplicationSet: dev syncs in step 1, prod in step 2; qa is in no step. */
function rolling(envs: string[], path: string): string {
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'web', namespace: 'argocd' },
    spec: {
      generators: [{ list: { elements: envs.map((env) => ({ env })) } }],
      strategy: {
        type: 'RollingSync',
        rollingSync: {
          steps: [
            { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] },
            { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
          ],
        },
      },
      template: {
        metadata: { name: 'web-{{env}}', labels: { env: '{{env}}' } },
        spec: {
          project: 'default',
          source: { repoURL: 'https://git.example/apps.git', path, targetRevision: 'main' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'web-{{env}}' },
          syncPolicy: { automated: { prune: true }, syncOptions: ['CreateNamespace=true'] },
        },
      },
    },
  });
}

describe('appset diff with --enable-progressive-syncs: a RollingSync’s changes with their steps, written as the rollout writes them', () => {
  it('each create and update names its step; automated sync is left out while steps are defined; without the switch neither', async () => {
    const repo = await twoCommitRepo(rolling(['dev'], 'web'), rolling(['dev', 'prod', 'qa'], 'web2'));
    const args = ['--repo', `https://git.example/apps.git=${repo}`, '--base', 'base', '--head', 'HEAD', '-o', 'json'];
    const on = await runDiff([...args, '--enable-progressive-syncs']);
    assert.equal(on.code, 1, on.err);
    const changes = on.report?.applicationSets[0]?.changes ?? [];
    assert.deepEqual(
      changes.map((c) => [c.name, c.action, c.step]),
      [
        ['web-dev', 'update', 1],
        ['web-prod', 'create', 2],
        ['web-qa', 'create', -1],
      ],
    );
    const paths = (name: string, list = changes): string[] => list.find((c) => c.name === name)?.fields.map((f) => f.path) ?? [];
    assert.ok(!paths('web-prod').some((p) => p.startsWith('spec.syncPolicy.automated')), 'the rollout writes no automated sync');
    assert.ok(paths('web-prod').includes('spec.syncPolicy.syncOptions'), paths('web-prod').join(', '));
    // The base was written by the rollout too: dev's only change is its path.
    assert.deepEqual(paths('web-dev'), ['spec.source.path']);
    const text = await runDiff([...args.slice(0, -2), '--enable-progressive-syncs']);
    assert.match(text.out, /\+ web-prod: create, RollingSync step 2/);
    assert.match(text.out, /\+ web-qa: create, in no RollingSync step/);

    const off = await runDiff(args);
    const plain = off.report?.applicationSets[0]?.changes ?? [];
    assert.deepEqual(
      plain.map((c) => c.step),
      [undefined, undefined, undefined],
    );
    assert.ok(paths('web-prod', plain).includes('spec.syncPolicy.automated.prune'), 'without progressive syncs the Application syncs itself');
  });
});
