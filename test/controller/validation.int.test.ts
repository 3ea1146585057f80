// Argo CD's checks of generated Applications (AppProject exists, destination names a known cluster) on the real
// API server, all or nothing: an invalid Application refuses the whole ApplicationSet, with the condition and a
// Warning Event naming it in Argo CD's words; nothing is created, updated or deleted; and the cluster Secret or
// AppProject that makes it valid brings the fix by its own event (the resync is an hour away here).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { namespaceObjects, startReplicas, type Replicas } from './replicas.js';

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const LOCAL = 'https://kubernetes.default.svc';

describe('generated Applications are validated before anything is written (two replicas, real API server)', () => {
  const kc = adminKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  let ns: TestNamespace;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;

  const clusterSecret = (name: string, server: string) =>
    core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name, labels: { 'argocd.argoproj.io/secret-type': 'cluster' } }, stringData: { name, server } },
    });
  const listSet = (prefix: string, project: string, elements: Array<{ app: string; server: string }>) => ({
    generators: [{ list: { elements } }],
    template: {
      metadata: { name: `${prefix}-{{app}}` },
      spec: {
        project,
        source: { repoURL: 'https://git.example/apps.git', path: 'apps/{{app}}' },
        destination: { server: '{{server}}', namespace: '{{app}}' },
      },
    },
  });
  /** The ErrorOccurred condition once it is a validation refusal matching `text`. */
  const refusal = (name: string, text: string) =>
    waitFor(
      async () => {
        const condition = await objects.condition(name, 'ErrorOccurred');
        return condition?.status === 'True' && condition.reason === 'ApplicationValidationError' && condition.message.includes(text) ? condition : undefined;
      },
      { what: `the validation refusal of ${name} (${text})`, timeoutMs: 30_000 },
    );
  const upToDate = async (name: string): Promise<boolean> => (await objects.condition(name, 'ResourcesUpToDate'))?.status === 'True';

  before(async () => {
    ns = await createControllerNamespace(kc, 'validate');
    objects = namespaceObjects(kc, ns.name);
    await clusterSecret('known', 'https://known.example');
    // An hour: a fix that arrives within the test's timeouts came through an event, not the safety-net resync.
    replicas = await startReplicas(kc, ns.name, 2, { 'resync-period': '1h' });
  });
  after(async () => {
    await replicas.stop();
    await ns.delete();
  });

  it('refuses an ApplicationSet with one Application on an unknown cluster, creates nothing, and converges once the cluster Secret exists', async () => {
    const elements = [
      { app: 'a', server: LOCAL },
      { app: 'b', server: 'https://known.example' },
      { app: 'c', server: 'https://unknown.example' },
    ];
    await objects.createAppSet('dests', listSet('dests', 'default', elements));
    const argoCdText =
      'application destination spec is invalid: error getting cluster by server "https://unknown.example": rpc error: code = NotFound desc = cluster "https://unknown.example" not found';
    const condition = await refusal('dests', argoCdText);
    assert.match(condition.message, /^1 of 3 generated Applications is invalid; /);
    assert.match(condition.message, new RegExp(`Application dests-c: ${argoCdText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    assert.equal(await objects.liveNames('dests-'), '', 'no Application is created, not even the valid ones');
    await waitFor(
      async () =>
        (await objects.events('dests')).some((e) => e.type === 'Warning' && e.reason === 'ApplicationValidationError' && e.message?.includes('dests-c')),
      {
        what: 'a Warning Event naming the Application',
        timeoutMs: 10_000,
      },
    );

    await clusterSecret('unknown', 'https://unknown.example');
    await waitFor(async () => (await objects.liveNames('dests-')) === 'dests-a,dests-b,dests-c' && (await upToDate('dests')), {
      what: 'the three Applications once the cluster Secret exists',
      timeoutMs: 30_000,
    });
  });

  it('keeps the owned Applications untouched while the AppProject is missing, and converges once it exists', async () => {
    await objects.createAppSet(
      'proj',
      listSet('proj', 'default', [
        { app: 'x', server: LOCAL },
        { app: 'y', server: LOCAL },
      ]),
    );
    await waitFor(async () => (await objects.liveNames('proj-')) === 'proj-x,proj-y' && (await upToDate('proj')), {
      what: 'the first two Applications',
      timeoutMs: 30_000,
    });
    const original = await objects.apps('proj-');

    // Would delete proj-y, create proj-z and move proj-x to another project, if the project existed.
    const changed = listSet('proj', 'late', [
      { app: 'x', server: LOCAL },
      { app: 'z', server: LOCAL },
    ]);
    await objects.custom.patchNamespacedCustomObject(
      { ...objects.G, plural: 'applicationsets', name: 'proj', body: [{ op: 'replace', path: '/spec', value: changed }] },
      jsonPatch,
    );
    const condition = await refusal('proj', 'application references project late which does not exist');
    assert.match(
      condition.message,
      /^2 of 2 generated Applications are invalid; .*Application proj-x: application references project late which does not exist; Application proj-z: /,
    );
    const kept = await objects.apps('proj-');
    assert.deepEqual([...kept.keys()].sort(), ['proj-x', 'proj-y'], 'nothing deleted, nothing created');
    assert.deepEqual(
      [...kept.values()].map((app) => [app.metadata.name, (app.spec as { project?: string }).project, app.metadata.uid]),
      [...original.values()].map((app) => [app.metadata.name, 'default', app.metadata.uid]),
      'nothing updated',
    );

    await objects.custom.createNamespacedCustomObject({
      ...objects.G,
      plural: 'appprojects',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'AppProject',
        metadata: { name: 'late' },
        spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }] },
      },
    });
    await waitFor(async () => (await objects.liveNames('proj-')) === 'proj-x,proj-z' && (await upToDate('proj')), {
      what: 'the Applications of the fixed project once the AppProject exists',
      timeoutMs: 30_000,
    });
    assert.equal(((await objects.apps('proj-')).get('proj-x')?.spec as { project?: string }).project, 'late');
  });

  it('converges when the manifest itself is fixed', async () => {
    const spec = listSet('named', 'default', [{ app: 'n', server: LOCAL }]);
    spec.template.spec.destination = { name: 'nowhere', namespace: '{{app}}' } as unknown as typeof spec.template.spec.destination;
    await objects.createAppSet('named', spec);
    await refusal('named', 'Application named-n: application destination spec is invalid: there are no clusters with this name: nowhere');
    await objects.custom.patchNamespacedCustomObject(
      { ...objects.G, plural: 'applicationsets', name: 'named', body: [{ op: 'replace', path: '/spec/template/spec/destination/name', value: 'in-cluster' }] },
      jsonPatch,
    );
    await waitFor(async () => (await objects.liveNames('named-')) === 'named-n' && (await upToDate('named')), {
      what: 'the fixed Application',
      timeoutMs: 30_000,
    });
  });
});
