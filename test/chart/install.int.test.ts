import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  PolicyV1Api,
  RbacAuthorizationV1Api,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, impersonatingKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { CHART_DIR, helm } from './helm.js';
import { forbiddenLines } from './forbidden-lines.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const REFRESH = 'argocd.argoproj.io/application-set-refresh';
/** The chart's ServiceAccount (and full name) for a release named `appset`. */
const SA = 'appset-appset-controller';

/** A controller started in-process as the chart's ServiceAccount, with every log line kept. */
interface ControllerUnderTest {
  controller: RunningController;
  logs: string[];
}

async function startAsServiceAccount(namespace: string, tenants: string[]): Promise<ControllerUnderTest> {
  const logs: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => void (logs.push(chunk.toString()), done()) });
  const kc = impersonatingKubeConfig(`system:serviceaccount:${namespace}:${SA}`);
  const config = readControllerConfig(
    {
      namespace,
      'applicationset-namespaces': tenants,
      'listen-address': '127.0.0.1:0',
      'git-cache-dir': mkdtempSync(join(tmpdir(), 'chart-git-')),
      'log-level': 'debug',
    },
    {},
  );
  const controller = await startController(config, kc, pino({ level: 'debug' }, sink));
  await waitForReady(controller);
  return { controller, logs };
}

async function waitForReady(controller: RunningController): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('the controller did not fill its caches within 60 s (forbidden lists?)')), 60_000)),
  );
  try {
    await Promise.race([controller.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Installs the chart as release `appset`; returns what helm printed (NOTES.txt included). */
async function helmInstall(namespace: string, set: string[]): Promise<string> {
  const result = await helm(['install', 'appset', CHART_DIR, '--namespace', namespace, '--set', 'crds.install=false', ...set.flatMap((s) => ['--set', s])], {
    kubeconfig: sharedEnvironment().kubeconfigPath,
    timeoutMs: 180_000,
  });
  assert.equal(result.code, 0, `helm install failed: ${result.stderr}`);
  return result.stdout;
}

async function helmUninstall(namespace: string): Promise<void> {
  await helm(['uninstall', 'appset', '--namespace', namespace], { kubeconfig: sharedEnvironment().kubeconfigPath });
}

function appSet(name: string, namespace: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name, namespace }, spec };
}

function listSpec(names: string[], project: string): Record<string, unknown> {
  return {
    generators: [{ list: { elements: names.map((n) => ({ name: n })) } }],
    template: {
      metadata: { name: '{{name}}' },
      spec: {
        project,
        source: { repoURL: 'https://git.example/team/apps.git', targetRevision: 'HEAD', path: 'apps/{{name}}' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'team-{{name}}' },
      },
    },
  };
}

/** Helpers over the admin client for what the controller did in `namespace`. */
function observe(kc: KubeConfig, namespace: string) {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const core = kc.makeApiClient(CoreV1Api);
  return {
    apps: async (): Promise<string[]> =>
      (
        (await custom.listNamespacedCustomObject({ ...G, namespace, plural: 'applications' })) as {
          items: Array<{ metadata: { name: string; deletionTimestamp?: string } }>;
        }
      ).items
        .filter((a) => !a.metadata.deletionTimestamp)
        .map((a) => a.metadata.name)
        .sort(),
    appset: async (name: string) =>
      (await custom.getNamespacedCustomObject({ ...G, namespace, plural: 'applicationsets', name })) as {
        metadata: { annotations?: Record<string, string> };
        status?: { conditions?: Array<{ type: string; status: string }>; resources?: unknown[] };
      },
    eventReasons: async (name: string): Promise<string[]> =>
      (await core.listNamespacedEvent({ namespace })).items
        .filter((e) => e.involvedObject.name === name && e.involvedObject.kind === 'ApplicationSet')
        .map((e) => e.reason ?? ''),
  };
}

/** {@link waitFor}, with the controller's last log lines in the error, so a failure says why. */
async function waitWithLogs<T>(
  running: ControllerUnderTest,
  probe: () => Promise<T | undefined | false>,
  options: { what: string; timeoutMs: number },
): Promise<T> {
  try {
    return await waitFor(probe, options);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\ncontroller log:\n${running.logs
        .slice(-5)
        .map((line) => line.slice(0, 700))
        .join('\n')}`,
      { cause: error },
    );
  }
}

describe('chart installed into the real API server; the controller runs as its ServiceAccount', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);

  describe('default values: only its own namespace, namespaced Roles', () => {
    let ns: TestNamespace;
    let running: ControllerUnderTest | undefined;
    let installOutput = '';

    before(async () => {
      ns = await createControllerNamespace(kc, 'chart');
      installOutput = await helmInstall(ns.name, []);
    });
    after(async () => {
      await running?.controller.stop(5_000);
      await helmUninstall(ns.name);
      await ns.delete();
    });

    it('creates the Deployment, PDB, ServiceAccount, Service, RBAC and bundled Redis', async () => {
      const apps = kc.makeApiClient(AppsV1Api);
      const deployment = await apps.readNamespacedDeployment({ namespace: ns.name, name: SA });
      assert.equal(deployment.spec?.replicas, 2);
      assert.equal(deployment.spec?.template.spec?.serviceAccountName, SA);
      assert.equal(deployment.spec?.template.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem, true);
      assert.equal((await kc.makeApiClient(PolicyV1Api).readNamespacedPodDisruptionBudget({ namespace: ns.name, name: SA })).spec?.maxUnavailable, 1);
      const core = kc.makeApiClient(CoreV1Api);
      await core.readNamespacedServiceAccount({ namespace: ns.name, name: SA });
      assert.deepEqual(
        (await core.readNamespacedService({ namespace: ns.name, name: SA })).spec?.ports?.map((p) => p.port),
        [8080],
      );
      assert.equal((await apps.readNamespacedStatefulSet({ namespace: ns.name, name: `${SA}-redis` })).spec?.replicas, 1);
      const password = (await core.readNamespacedSecret({ namespace: ns.name, name: `${SA}-redis` })).data?.['redis-password'];
      assert.equal(Buffer.from(password ?? '', 'base64').length, 32, 'a generated Redis password');
      const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
      const roles = (await rbac.listNamespacedRole({ namespace: ns.name })).items.map((r) => r.metadata?.name).sort();
      assert.deepEqual(roles, [`${SA}-config`, `${SA}-watch`, `${SA}-write`]);
      const clusterRoles = (await rbac.listClusterRole({ labelSelector: 'app.kubernetes.io/instance=appset' })).items.filter((r) =>
        r.metadata?.name?.includes(ns.name),
      );
      assert.deepEqual(clusterRoles, [], 'nothing cluster-wide');
    });

    it('prints NOTES.txt: how to check it works', () => {
      assert.match(installOutput, new RegExp(`kubectl -n ${ns.name} rollout status deployment/${SA}`));
      assert.match(installOutput, /curl -s localhost:8080\/readyz/);
      assert.match(installOutput, /grep -i forbidden/);
      assert.match(installOutput, /crds.install is false/);
    });

    it('the ServiceAccount may not read what it was not granted (the impersonation really restricts)', async () => {
      const asSa = impersonatingKubeConfig(`system:serviceaccount:${ns.name}:${SA}`).makeApiClient(CoreV1Api);
      await assert.rejects(asSa.listNamespacedSecret({ namespace: 'kube-system' }), (error: unknown) => error instanceof ApiException && error.code === 403);
      await assert.rejects(asSa.listNamespacedConfigMap({ namespace: ns.name }), (error: unknown) => error instanceof ApiException && error.code === 403);
    });

    it('reconciles ApplicationSets end to end (Git with credentials, create, status, Events, refresh, delete) with no forbidden error', async () => {
      const info = sharedEnvironment();
      const repo = await sharedGitFixtures().createRepo(`chart-${ns.name}`, {
        'apps/alpha/kustomization.yaml': 'resources: []\n',
        'apps/beta/kustomization.yaml': 'resources: []\n',
      });
      await kc.makeApiClient(CoreV1Api).createNamespacedSecret({
        namespace: ns.name,
        body: {
          metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
          stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword },
        },
      });
      running = await startAsServiceAccount(ns.name, []);
      const seen = observe(kc, ns.name);
      const gitSpec = {
        generators: [{ git: { repoURL: repo.httpUrl, revision: 'HEAD', directories: [{ path: 'apps/*' }] } }],
        template: {
          metadata: { name: 'git-{{path.basename}}' },
          spec: {
            project: 'default',
            source: { repoURL: repo.httpUrl, targetRevision: 'HEAD', path: '{{path}}' },
            destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
          },
        },
      };
      await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: appSet('git', ns.name, gitSpec) });
      await custom.createNamespacedCustomObject({
        ...G,
        namespace: ns.name,
        plural: 'applicationsets',
        body: appSet('list', ns.name, listSpec(['a', 'b'], 'default')),
      });
      await waitWithLogs(running, async () => (await seen.apps()).join() === 'a,b,git-alpha,git-beta', {
        what: 'the Applications of both ApplicationSets',
        timeoutMs: 60_000,
      });
      await waitWithLogs(
        running,
        async () => (await seen.appset('list')).status?.conditions?.some((c) => c.type === 'ResourcesUpToDate' && c.status === 'True'),
        { what: 'the status', timeoutMs: 30_000 },
      );
      await waitWithLogs(running, async () => (await seen.eventReasons('list')).includes('Created'), { what: 'a Created Event', timeoutMs: 30_000 });

      await custom.patchNamespacedCustomObject(
        {
          ...G,
          namespace: ns.name,
          plural: 'applicationsets',
          name: 'list',
          body: [{ op: 'add', path: '/metadata/annotations', value: { [REFRESH]: 'true' } }],
        },
        jsonPatch,
      );
      await waitWithLogs(running, async () => (await seen.appset('list')).metadata.annotations?.[REFRESH] === undefined, {
        what: 'the refresh annotation to be cleared',
        timeoutMs: 30_000,
      });

      await custom.patchNamespacedCustomObject(
        {
          ...G,
          namespace: ns.name,
          plural: 'applicationsets',
          name: 'list',
          body: [{ op: 'replace', path: '/spec/generators/0/list/elements', value: [{ name: 'a' }] }],
        },
        jsonPatch,
      );
      await waitWithLogs(running, async () => !(await seen.apps()).includes('b'), { what: 'Application b to be deleted', timeoutMs: 30_000 });
      await waitWithLogs(running, async () => (await seen.eventReasons('list')).includes('Deleted'), { what: 'a Deleted Event', timeoutMs: 30_000 });
      assert.deepEqual(forbiddenLines(running.logs), [], 'no request was forbidden');
    });
  });

  describe('tenant namespaces by name: cluster-wide watch, Roles for the writes', () => {
    let ns: TestNamespace;
    let tenant: TestNamespace;
    let running: ControllerUnderTest | undefined;

    before(async () => {
      ns = await createTestNamespace(kc, 'chart-ctl');
      tenant = await createTestNamespace(kc, 'chart-tenant');
      await helmInstall(ns.name, [`controller.applicationSetNamespaces={${tenant.name}}`, 'redis.mode=none', 'replicaCount=1']);
    });
    after(async () => {
      await running?.controller.stop(5_000);
      await helmUninstall(ns.name);
      await Promise.all([ns.delete(), tenant.delete()]);
    });

    it("reconciles a tenant's ApplicationSet inside its AppProject with no forbidden error", async () => {
      const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
      assert.deepEqual(
        (await rbac.listNamespacedRole({ namespace: tenant.name })).items.map((r) => r.metadata?.name),
        [`${SA}-write`],
      );
      await rbac.readClusterRole({ name: `${SA}-${ns.name}-watch` });
      await custom.createNamespacedCustomObject({
        ...G,
        namespace: ns.name,
        plural: 'appprojects',
        body: {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'AppProject',
          metadata: { name: 'team' },
          spec: {
            sourceNamespaces: [tenant.name],
            sourceRepos: ['https://git.example/team/*'],
            destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'team-*' }],
          },
        },
      });
      running = await startAsServiceAccount(ns.name, [tenant.name]);
      const seen = observe(kc, tenant.name);
      await custom.createNamespacedCustomObject({
        ...G,
        namespace: tenant.name,
        plural: 'applicationsets',
        body: appSet('team', tenant.name, listSpec(['x', 'y'], 'team')),
      });
      await waitWithLogs(running, async () => (await seen.apps()).join() === 'x,y', { what: "the tenant's Applications", timeoutMs: 60_000 });
      await waitWithLogs(
        running,
        async () => (await seen.appset('team')).status?.conditions?.some((c) => c.type === 'ResourcesUpToDate' && c.status === 'True'),
        { what: 'the status', timeoutMs: 30_000 },
      );
      await waitWithLogs(running, async () => (await seen.eventReasons('team')).includes('Created'), { what: 'a Created Event', timeoutMs: 30_000 });
      assert.deepEqual(forbiddenLines(running.logs), [], 'no request was forbidden');
    });
  });
});
