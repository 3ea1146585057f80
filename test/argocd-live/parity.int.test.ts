// Both controllers live on the same real API server: this project's controller in one namespace, Argo CD's own
// ApplicationSet controller (v3.2.6, with its repo-server) in another, each given the same ApplicationSets. The
// Applications each one writes must be the same: spec, labels, annotations, finalizers and owner. The
// differential tests compare renders offline; this compares what the two controllers actually leave in a cluster.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { INTENT_HASH_ANNOTATION } from '../../src/controller/plan/apply-intent.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { argoCdBinaries, ArgoCdInstall, prepareArgoCdNamespace } from '../system/argocd-process.js';
import { createAppSets, prepareNamespace } from '../system/cluster-setup.js';
import { ReplicaProcess } from '../system/controller-process.js';
import { createWorkloadRepo, workloadManifests, type AppSetManifest } from '../system/workload.js';

type LiveApp = {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: Array<{ kind: string; name: string; controller?: boolean; blockOwnerDeletion?: boolean }>;
  };
  spec: unknown;
};

/**
 * What both controllers must agree on for one Application: the namespace, server-set fields and this controller's
 * own bookkeeping annotation (the hash of what it last applied) aside.
 */
function comparable(app: LiveApp) {
  const { labels = {}, annotations = {}, finalizers = [], ownerReferences = [] } = app.metadata;
  const { [INTENT_HASH_ANNOTATION]: _bookkeeping, ...templated } = annotations;
  return {
    spec: app.spec,
    labels,
    annotations: templated,
    finalizers: [...finalizers].sort(),
    owners: ownerReferences.map(({ kind, name, controller, blockOwnerDeletion }) => ({ kind, name, controller, blockOwnerDeletion })),
  };
}

/** Richer templates than the benchmark's workload: a Go-template matrix of a list and a git generator, with sync policy, annotations and a finalizer. */
function matrixAppSet(namespace: string, repoUrl: string): AppSetManifest {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'matrix', namespace },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: [
        {
          matrix: {
            generators: [
              {
                list: {
                  elements: [
                    { env: 'dev', replicas: '1' },
                    { env: 'prod', replicas: '3' },
                  ],
                },
              },
              { git: { repoURL: repoUrl, revision: 'HEAD', directories: [{ path: 'apps/*' }, { path: 'apps/app-001', exclude: true }] } },
            ],
          },
        },
      ],
      template: {
        metadata: {
          name: 'mx-{{.env}}-{{.path.basename}}',
          labels: { env: '{{.env}}', app: '{{.path.basename | upper}}' },
          annotations: { 'example.com/path': '{{.path.path}}', 'example.com/replicas': '{{.replicas}}' },
          finalizers: ['resources-finalizer.argocd.argoproj.io'],
        },
        spec: {
          project: 'default',
          source: {
            repoURL: repoUrl,
            targetRevision: 'HEAD',
            path: '{{.path.path}}',
            kustomize: { namePrefix: '{{.env}}-', commonLabels: { tier: '{{.env}}' } },
          },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{.env}}-{{.path.basename}}' },
          syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
        },
      },
    },
  };
}

describe("this controller and Argo CD's own ApplicationSet controller write the same Applications", { timeout: 600_000 }, () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  const shape = { appSets: 4, appsPerSet: 5 };
  let ours = '';
  let theirs = '';
  let replica: ReplicaProcess | undefined;
  let argo: ArgoCdInstall | undefined;

  const applications = async (namespace: string): Promise<Map<string, ReturnType<typeof comparable>>> => {
    const list = (await custom.listNamespacedCustomObject({ group: 'argoproj.io', version: 'v1alpha1', namespace, plural: 'applications' })) as {
      items: LiveApp[];
    };
    return new Map(list.items.map((app) => [app.metadata.name, comparable(app)]));
  };

  before(async () => {
    const env = sharedEnvironment();
    const binaries = await argoCdBinaries();
    const repo = await createWorkloadRepo(sharedGitFixtures(), `parity-${Date.now()}`, shape);
    // prepareNamespace creates each namespace with the AppProject and the repository Secret, as the benchmark does.
    const suffix = randomBytes(3).toString('hex');
    ours = `parity-ours-${suffix}`;
    theirs = `parity-argocd-${suffix}`;
    for (const namespace of [ours, theirs]) await prepareNamespace(kc, namespace, env);
    await prepareArgoCdNamespace(kc, theirs, 'parity-webhook-secret');
    const logDir = mkdtempSync(join(tmpdir(), 'argocd-parity-logs-'));
    replica = await ReplicaProcess.start({
      name: 'parity-replica',
      kubeconfigPath: env.kubeconfigPath,
      namespace: ours,
      redisUrl: `${env.redisUrl}/7`,
      logDir,
      gitCacheDir: mkdtempSync(join(tmpdir(), 'argocd-parity-git-')),
      args: ['--concurrent-reconciliations=4'],
    });
    argo = await ArgoCdInstall.start({
      name: 'parity-argocd',
      binaries,
      config: 'shipped',
      kubeconfigPath: env.kubeconfigPath,
      namespace: theirs,
      redisUrl: env.redisUrl,
      redisDb: 8,
      concurrentReconciliations: 4,
      logDir,
      workDir: mkdtempSync(join(tmpdir(), 'argocd-parity-work-')),
    });
    for (const namespace of [ours, theirs]) {
      await createAppSets(kc, [...workloadManifests(shape, namespace, repo.httpUrl, 'v1'), matrixAppSet(namespace, repo.httpUrl)]);
    }
  });

  after(async () => {
    await Promise.all([replica?.process.stop('SIGTERM', 30_000), argo?.stop()]);
    const core = kc.makeApiClient(CoreV1Api);
    await Promise.all([ours, theirs].filter(Boolean).map((name) => core.deleteNamespace({ name }).catch(() => undefined)));
  });

  it('converges both namespaces to the same Applications', async () => {
    // 4 sets of 5, then the matrix: 2 environments x 4 folders (one of the 5 excluded).
    const expected = shape.appSets * shape.appsPerSet + 2 * (shape.appsPerSet - 1);
    let last: [Map<string, unknown>, Map<string, unknown>] = [new Map<string, unknown>(), new Map<string, unknown>()];
    await waitFor(
      async () => {
        last = [await applications(ours), await applications(theirs)];
        return last[0].size === expected && last[1].size === expected && isDeepStrictEqual(last[0], last[1]);
      },
      { what: `both namespaces to hold the same ${expected} Applications`, timeoutMs: 120_000, intervalMs: 1000 },
    ).catch(() => undefined);
    const [mine, argos] = last;
    assert.deepEqual([...mine.keys()].sort(), [...argos.keys()].sort(), 'the same Application names');
    assert.equal(mine.size, expected);
    for (const [name, app] of mine) assert.deepEqual(app, argos.get(name), `Application ${name}: this controller (actual) and Argo CD (expected)`);
    assert.deepEqual(argo?.errorLines() ?? [], [], "Argo CD's logs hold no errors");
  });
});
