import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { pino } from 'pino';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { installCrds } from '../../src/kube/install-crds.js';
import { createKubeTransport, MERGE_PATCH } from '../../src/kube/transport/transport.js';
import { SHARED_CREDENTIALS_LABEL } from '../../src/model/secrets.js';
import { namespaceObjects } from '../controller/replicas.js';
import { createControllerNamespace, createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';

// The clusterDecisionResource generator end to end: a PlacementDecision CRD of Open Cluster Management's shape in
// the real API server, cluster Secrets, the ConfigMap that describes the resource, and ApplicationSets of the
// platform and of a tenant. Resync and requeue are an hour away, so Applications that follow an edit of the
// PlacementDecision's status within seconds prove the watch.

const GROUP = 'cluster.open-cluster-management.io';
const VERSION = 'v1beta1';
const PLURAL = 'placementdecisions';
const PLACEMENT_LABEL = 'cluster.open-cluster-management.io/placement';

// Typed loosely: the schema keeps its JSON key names (x-kubernetes-preserve-unknown-fields), which client-node's type spells otherwise.
const PLACEMENT_DECISION_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'placementdecision', kind: 'PlacementDecision', listKind: 'PlacementDecisionList' },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: {
                type: 'object',
                properties: {
                  decisions: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['clusterName', 'reason'],
                      properties: { clusterName: { type: 'string' }, reason: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
} as unknown as V1CustomResourceDefinition;

const server = (cluster: string): string => `https://${cluster}.example.com`;

describe('clusterDecisionResource generator against a real PlacementDecision CRD', () => {
  const kc = adminKubeConfig();
  const transport = createKubeTransport(kc);
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  let platform: TestNamespace;
  let tenant: TestNamespace;
  let controller: RunningController;

  const decisionsPath = (namespace: string, name?: string): string => `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}${name ? `/${name}` : ''}`;
  /** Creates a PlacementDecision and writes its status through the status subresource, as OCM's controller does. */
  const createDecision = async (namespace: string, name: string, placement: string, clusters: string[]): Promise<void> => {
    await transport.request({
      method: 'POST',
      path: decisionsPath(namespace),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'PlacementDecision', metadata: { name, labels: { [PLACEMENT_LABEL]: placement } } },
    });
    await setDecisions(namespace, name, clusters);
  };
  const setDecisions = (namespace: string, name: string, clusters: string[]): Promise<void> =>
    transport.send({
      method: 'PATCH',
      path: `${decisionsPath(namespace, name)}/status`,
      contentType: MERGE_PATCH,
      body: { status: { decisions: clusters.map((clusterName) => ({ clusterName, reason: 'placed' })) } },
    });
  const until = (what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<true> =>
    waitFor(async () => (await probe()) || undefined, { what, timeoutMs, intervalMs: 100 });
  const appset = (name: string, generator: Record<string, unknown>, options: { goTemplate: boolean; project?: string }): Record<string, unknown> => {
    const p = (param: string): string => (options.goTemplate ? `{{ .${param} }}` : `{{${param}}}`);
    return {
      ...(options.goTemplate ? { goTemplate: true, goTemplateOptions: ['missingkey=error'] } : {}),
      generators: [{ clusterDecisionResource: { configMapRef: 'ocm-placement', requeueAfterSeconds: 3600, ...generator } }],
      template: {
        metadata: { name: `${name}-${p('name')}`, annotations: { cluster: p('clusterName'), reason: p('reason'), team: p('values.team') } },
        spec: {
          project: options.project ?? 'default',
          source: { repoURL: 'https://git.example/team/apps.git', path: 'apps', targetRevision: 'HEAD' },
          destination: { server: p('server'), namespace: 'apps' },
        },
      },
    };
  };

  before(async () => {
    await installCrds(transport, [PLACEMENT_DECISION_CRD]);
    platform = await createControllerNamespace(kc, 'cdr');
    tenant = await createTestNamespace(kc, 'cdr-tenant');
    for (const cluster of ['cluster-a', 'cluster-b', 'cluster-c']) {
      await core.createNamespacedSecret({
        namespace: platform.name,
        body: {
          metadata: { name: cluster, labels: { 'argocd.argoproj.io/secret-type': 'cluster' } },
          stringData: { name: cluster, server: server(cluster), config: '{}' },
        },
      });
    }
    const data = { apiVersion: `${GROUP}/${VERSION}`, kind: PLURAL, statusListKey: 'decisions', matchKey: 'clusterName' };
    // Shared with tenants (the label); the private one is the platform's only.
    await core.createNamespacedConfigMap({
      namespace: platform.name,
      body: { metadata: { name: 'ocm-placement', labels: { [SHARED_CREDENTIALS_LABEL]: 'true' } }, data },
    });
    await core.createNamespacedConfigMap({ namespace: platform.name, body: { metadata: { name: 'ocm-private' }, data } });
    await custom.createNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: platform.name,
      plural: 'appprojects',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'AppProject',
        metadata: { name: 'team' },
        spec: { sourceNamespaces: [tenant.name], sourceRepos: ['https://git.example/team/*'], destinations: [{ server: server('cluster-a'), namespace: '*' }] },
      },
    });
    await createDecision(platform.name, 'placement-1', 'p1', ['cluster-a', 'cluster-b']);
    await createDecision(tenant.name, 'tenant-placement', 't1', ['cluster-a', 'cluster-b']);
    const config = readControllerConfig(
      {
        namespace: platform.name,
        'applicationset-namespaces': [tenant.name],
        'listen-address': '127.0.0.1:0',
        'resync-period': '1h',
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'cdr-git-')),
      },
      {},
    );
    controller = await startController(
      config,
      kc,
      pino({ level: process.env.CDR_LOG ? 'debug' : 'silent' }, process.env.CDR_LOG ? pino.destination(process.env.CDR_LOG) : undefined),
    );
    await controller.ready;
  });
  after(async () => {
    await controller?.stop(5_000);
    await Promise.all([tenant?.delete(), platform?.delete()]);
  });

  it("creates an Application per decided cluster, with Argo CD's parameters in both template styles", async () => {
    const objects = namespaceObjects(kc, platform.name);
    await objects.createAppSet('placed', appset('placed', { name: 'placement-1', values: { team: 'blue' } }, { goTemplate: true }));
    await objects.createAppSet(
      'fast',
      appset('fast', { labelSelector: { matchLabels: { [PLACEMENT_LABEL]: 'p1' } }, values: { team: 'red' } }, { goTemplate: false }),
    );
    await until('the Applications of both ApplicationSets', async () => {
      return (
        (await objects.liveNames('placed-')) === 'placed-cluster-a,placed-cluster-b' && (await objects.liveNames('fast-')) === 'fast-cluster-a,fast-cluster-b'
      );
    });
    const apps = await objects.apps();
    const seen = (name: string) => {
      const app = apps.get(name) as unknown as { metadata: { annotations: Record<string, string> }; spec: { destination: { server: string } } };
      const { cluster, reason, team } = app.metadata.annotations;
      return { cluster, reason, team, server: app.spec.destination.server };
    };
    assert.deepEqual(seen('placed-cluster-b'), { cluster: 'cluster-b', reason: 'placed', team: 'blue', server: server('cluster-b') });
    assert.deepEqual(seen('fast-cluster-a'), { cluster: 'cluster-a', reason: 'placed', team: 'red', server: server('cluster-a') });
  });

  it('follows an edit of the PlacementDecision status at once (the watch, not a requeue)', async () => {
    const objects = namespaceObjects(kc, platform.name);
    await setDecisions(platform.name, 'placement-1', ['cluster-b', 'cluster-c']);
    await until(
      'the Applications to follow the new decisions',
      async () =>
        (await objects.liveNames('placed-')) === 'placed-cluster-b,placed-cluster-c' && (await objects.liveNames('fast-')) === 'fast-cluster-b,fast-cluster-c',
      20_000,
    );
  });

  it('follows an edit of the ConfigMap it names (watched too)', async () => {
    const objects = namespaceObjects(kc, platform.name);
    // Without matchKey Argo CD gives no parameters and no error: a success that waits an hour for its requeue.
    const data = { apiVersion: `${GROUP}/${VERSION}`, kind: PLURAL, statusListKey: 'decisions' };
    await core.createNamespacedConfigMap({ namespace: platform.name, body: { metadata: { name: 'ocm-late' }, data } });
    await objects.createAppSet('late', appset('late', { configMapRef: 'ocm-late', name: 'placement-1', values: { team: 'late' } }, { goTemplate: true }));
    await until('the first reconcile of late', async () => (await objects.condition('late', 'ResourcesUpToDate'))?.status === 'True');
    assert.equal(await objects.liveNames('late-'), '');
    await core.patchNamespacedConfigMap(
      { namespace: platform.name, name: 'ocm-late', body: { data: { ...data, matchKey: 'clusterName' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until(
      'the Applications once the ConfigMap has a matchKey',
      async () => (await objects.liveNames('late-')) === 'late-cluster-b,late-cluster-c',
      20_000,
    );
  });

  it("a tenant reads its own namespace's decisions and gets only the clusters its AppProject permits", async () => {
    const objects = namespaceObjects(kc, tenant.name);
    await objects.createAppSet('mine', appset('mine', { name: 'tenant-placement', values: { team: 'team' } }, { goTemplate: true, project: 'team' }));
    await until('the tenant Application on cluster-a', async () => (await objects.liveNames('mine-')) === 'mine-cluster-a');
    // cluster-b is decided too, but outside the project: skipped, never written.
    const condition = await objects.condition('mine', 'ErrorOccurred');
    assert.notEqual(condition?.status, 'True', condition?.message);
    assert.equal(await objects.liveNames('mine-'), 'mine-cluster-a');
  });

  const refused = async (name: string, generator: Record<string, unknown>, rule: RegExp): Promise<void> => {
    const objects = namespaceObjects(kc, tenant.name);
    await objects.createAppSet(name, appset(name, generator, { goTemplate: true, project: 'team' }));
    const message = await waitFor(
      async () => {
        const condition = await objects.condition(name, 'ErrorOccurred');
        return condition?.status === 'True' && rule.test(condition.message) ? condition.message : undefined;
      },
      { what: `the refusal of ${name}`, timeoutMs: 20_000 },
    );
    assert.match(message, rule);
    assert.equal(await objects.liveNames(`${name}-`), '', 'nothing was written');
  };

  it("attack: a tenant naming the platform's PlacementDecision finds nothing in its own namespace and writes nothing", async () => {
    await refused(
      'steal',
      { name: 'placement-1' },
      new RegExp(`no clusterDecisionResources found: no ${PLURAL}.* named "placement-1" in namespace ${tenant.name}`),
    );
  });

  it('attack: a tenant naming a ConfigMap not shared with its project is refused before anything is read', async () => {
    await refused('private', { configMapRef: 'ocm-private', name: 'tenant-placement' }, /ConfigMap .*ocm-private may not be used by project team/);
  });
});
