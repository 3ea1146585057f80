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

/** The guestbook ApplicationSet's spec: one Application per env, with a preserved label and an ignored field. */
function spec(envs: string[], team: string): Record<string, unknown> {
  return {
    generators: [{ list: { elements: envs.map((env) => ({ env })) } }],
    preservedFields: { labels: ['team'] },
    ignoreApplicationDifferences: [{ jsonPointers: ['/spec/source/targetRevision'] }],
    template: {
      metadata: { name: 'guestbook-{{env}}', labels: { team } },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path: 'guestbook', targetRevision: 'main' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook-{{env}}' },
      },
    },
  };
}

describe('appset diff --live against the real API server, with Applications written by the real controller', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let objects: ReturnType<typeof namespaceObjects>;
  let kubeconfig: string;
  let file: string;

  before(async () => {
    ns = await createControllerNamespace(kc, 'diff-live');
    objects = namespaceObjects(kc, ns.name);
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'diff-live-')), 'kubeconfig');
    writeFileSync(kubeconfig, kc.exportConfig());
    await objects.createAppSet('guestbook', spec(['dev', 'prod'], 'red'));
    // An Application nobody controls, with the name the change will want.
    await objects.custom.createNamespacedCustomObject({
      ...objects.G,
      plural: 'applications',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'guestbook-qa', namespace: ns.name },
        spec: {
          project: 'default',
          source: { repoURL: 'https://git.example/apps.git', path: 'qa' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'qa' },
        },
      },
    });
    const replicas = await startReplicas(kc, ns.name, 1);
    try {
      await waitFor(async () => ((await objects.liveNames('guestbook-')) === 'guestbook-dev,guestbook-prod,guestbook-qa' ? true : undefined), {
        what: 'the controller to write guestbook-dev and guestbook-prod',
        timeoutMs: 30_000,
      });
    } finally {
      await replicas.stop();
    }
    // Hand edits the ApplicationSet leaves alone: a preserved label and an ignored field.
    const dev = (await objects.custom.getNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'guestbook-dev' })) as {
      metadata: { labels?: Record<string, string> };
      spec: { source: { targetRevision: string } };
    };
    dev.metadata.labels = { ...dev.metadata.labels, team: 'blue' };
    dev.spec.source.targetRevision = 'hotfix';
    await objects.custom.replaceNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'guestbook-dev', body: dev });
    // The change under review: prod goes, qa comes (someone else's), the template's team label changes.
    file = join(mkdtempSync(join(tmpdir(), 'diff-live-file-')), 'guestbook.yaml');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: 'guestbook', namespace: ns.name },
        spec: spec(['dev', 'qa'], 'green'),
      }),
    );
  });
  after(async () => ns.delete());

  it('shows the delete, keeps the preserved label and the ignored field, and reports the conflict exactly as the controller then does', async () => {
    const { code, report, err } = await runDiff(['--live', '--kubeconfig', kubeconfig, '--namespace', ns.name, '-o', 'json', file]);
    assert.equal(code, 2, err);
    const set = report?.applicationSets[0];
    assert.equal(set?.presence, 'present');
    // dev is applied again (the controller's intent changed: the template's label went from red to green), but no
    // field of it changes: the preserved label keeps blue, the ignored field keeps the hand-edited revision.
    assert.deepEqual(
      set?.changes.map((c) => [c.name, c.action, c.fields.length === 0]),
      [
        ['guestbook-dev', 'update', true],
        ['guestbook-prod', 'delete', false],
      ],
    );
    assert.equal(set?.unchanged, 0);
    assert.deepEqual(set?.conflicts, [{ name: 'guestbook-qa', owner: 'nobody (not controlled by any ApplicationSet)' }]);
    assert.equal(set?.verdict.result, 'refused');
    // Now let the real controller do it: its condition must say what diff said.
    await objects.custom.patchNamespacedCustomObject({
      ...objects.G,
      plural: 'applicationsets',
      name: 'guestbook',
      body: [{ op: 'replace', path: '/spec', value: spec(['dev', 'qa'], 'green') }],
    });
    const replicas = await startReplicas(kc, ns.name, 1);
    try {
      const condition = await waitFor(
        async () => {
          const c = await objects.condition('guestbook', 'ErrorOccurred');
          return c?.status === 'True' ? c : undefined;
        },
        { what: 'the controller to report the conflict', timeoutMs: 30_000 },
      );
      assert.deepEqual({ reason: condition.reason, message: condition.message }, { reason: set?.verdict.reason, message: set?.verdict.message });
      await waitFor(async () => ((await objects.liveNames('guestbook-')) === 'guestbook-dev,guestbook-qa' ? true : undefined), {
        what: 'prod deleted',
        timeoutMs: 30_000,
      });
      const dev = (await objects.apps('guestbook-dev')).get('guestbook-dev') as
        { metadata: { labels?: Record<string, string> }; spec: { source: { targetRevision?: string } } } | undefined;
      assert.equal(dev?.metadata.labels?.team, 'blue', 'the preserved label stayed, as diff said');
      assert.equal(dev?.spec.source.targetRevision, 'hotfix', 'the ignored field stayed, as diff said');
    } finally {
      await replicas.stop();
    }
    // After the controller's writes, the same diff finds nothing left to change but the conflict.
    const again = await runDiff(['--live', '--kubeconfig', kubeconfig, '--namespace', ns.name, '-o', 'json', file]);
    assert.deepEqual(again.report?.applicationSets[0]?.changes, []);
    assert.equal(again.report?.applicationSets[0]?.unchanged, 1);
  });

  it('an ApplicationSet the cluster does not have yet: every Application is created', async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'diff-live-new-')), 'new.yaml');
    writeFileSync(
      fresh,
      JSON.stringify({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: 'newset', namespace: ns.name },
        spec: { ...spec(['a'], 'x'), template: { ...(spec(['a'], 'x')['template'] as object), metadata: { name: 'newset-{{env}}' } } },
      }),
    );
    const { code, report, out } = await runDiff(['--live', '--kubeconfig', kubeconfig, '--namespace', ns.name, '-o', 'json', fresh]);
    assert.equal(code, 1, out);
    assert.equal(report?.applicationSets[0]?.presence, 'added');
    assert.deepEqual(
      report?.applicationSets[0]?.changes.map((c) => [c.name, c.action]),
      [['newset-a', 'create']],
    );
  });
});
