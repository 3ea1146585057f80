import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { namespaceObjects, startReplicas } from '../controller/replicas.js';
import { runDiff } from './diff-harness.js';

/** One Application, `web-dev`, with the template's labels and annotations. */
function spec(labels: Record<string, string>, annotations: Record<string, string>): Record<string, unknown> {
  return {
    generators: [{ list: { elements: [{ env: 'dev' }] } }],
    template: {
      metadata: { name: 'web-{{env}}', labels, annotations },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path: 'web', targetRevision: 'main' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'web-{{env}}' },
      },
    },
  };
}

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string> };

describe('appset diff --live: what the controller applied and the new render drops is shown removed, as the apply removes it', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let objects: ReturnType<typeof namespaceObjects>;
  let kubeconfig: string;
  let file: string;
  const next = spec({ team: 'red' }, { note: 'kept' });

  before(async () => {
    ns = await createControllerNamespace(kc, 'diff-owned');
    objects = namespaceObjects(kc, ns.name);
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'diff-owned-')), 'kubeconfig');
    writeFileSync(kubeconfig, kc.exportConfig());
    await objects.createAppSet('web', spec({ team: 'red', tier: 'gold' }, { note: 'kept', owner: 'ops' }));
    const replicas = await startReplicas(kc, ns.name, 1);
    try {
      await waitFor(async () => ((await objects.apps('web-')).get('web-dev') as { metadata: Meta } | undefined)?.metadata.labels?.['tier'], {
        what: 'the controller to write web-dev with label tier',
        timeoutMs: 30_000,
      });
    } finally {
      await replicas.stop();
    }
    // Another field manager adds its own label and annotation: they are its, not the controller's.
    await objects.custom.patchNamespacedCustomObject({
      ...objects.G,
      plural: 'applications',
      name: 'web-dev',
      fieldManager: 'someone-else',
      body: [
        { op: 'add', path: '/metadata/labels/mine', value: 'yes' },
        { op: 'add', path: '/metadata/annotations/theirs', value: 'yes' },
      ],
    });
    // The change under review drops the template's label tier and annotation owner.
    file = join(mkdtempSync(join(tmpdir(), 'diff-owned-file-')), 'web.yaml');
    writeFileSync(
      file,
      JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'web', namespace: ns.name }, spec: next }),
    );
  });
  after(async () => ns.delete());

  it('shows the dropped label and annotation removed, not the other manager’s; the controller then removes exactly those', async () => {
    const { code, report, err } = await runDiff(['--live', '--kubeconfig', kubeconfig, '--namespace', ns.name, '-o', 'json', file]);
    assert.equal(code, 1, err);
    const changes = report?.applicationSets[0]?.changes;
    assert.deepEqual(
      changes?.map((c) => [c.name, c.action]),
      [['web-dev', 'update']],
    );
    assert.deepEqual(changes?.[0]?.fields, [
      { path: 'metadata.annotations.owner', kind: 'removed', before: 'ops' },
      { path: 'metadata.labels.tier', kind: 'removed', before: 'gold' },
    ]);
    // The real controller reconciles the change: the prediction must be what happens.
    await objects.custom.patchNamespacedCustomObject({
      ...objects.G,
      plural: 'applicationsets',
      name: 'web',
      body: [{ op: 'replace', path: '/spec', value: next }],
    });
    const replicas = await startReplicas(kc, ns.name, 1);
    let meta: Meta | undefined;
    try {
      meta = await waitFor(
        async () => {
          const live = (await objects.apps('web-')).get('web-dev') as { metadata: Meta } | undefined;
          return live && live.metadata.labels?.['tier'] === undefined ? live.metadata : undefined;
        },
        { what: 'the controller to apply the new template', timeoutMs: 30_000 },
      );
    } finally {
      await replicas.stop();
    }
    assert.equal(meta.annotations?.['owner'], undefined, 'the dropped annotation is gone, as diff said');
    assert.deepEqual(
      { team: meta.labels?.['team'], mine: meta.labels?.['mine'], note: meta.annotations?.['note'], theirs: meta.annotations?.['theirs'] },
      { team: 'red', mine: 'yes', note: 'kept', theirs: 'yes' },
      "the other manager's keys stayed, as diff said (it did not show them)",
    );
    const again = await runDiff(['--live', '--kubeconfig', kubeconfig, '--namespace', ns.name, '-o', 'json', file]);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.report?.applicationSets[0]?.changes, []);
  });
});
