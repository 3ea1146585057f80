import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { controllerSettings } from '../../src/config/controller-settings.js';
import { CHART_DIR, findObject, helm, renderChart, type Rendered } from './helm.js';

const ALL_ON = join(CHART_DIR, 'ci', 'all-on-values.yaml');
const REPO_CRDS = join(CHART_DIR, '..', '..', 'crds');

interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  ports?: Array<{ name: string; containerPort: number }>;
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  securityContext: Record<string, unknown>;
  volumes: Array<{ name: string; emptyDir?: unknown; secret?: unknown }>;
  topologySpreadConstraints?: Array<{ topologyKey: string; whenUnsatisfiable: string }>;
  affinity?: { podAntiAffinity?: Record<string, unknown> };
  serviceAccountName: string;
}

const podSpecOf = (obj: Rendered): PodSpec => (obj as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
const controllerOf = (objects: Rendered[]): Container => {
  const container = podSpecOf(findObject(objects, 'Deployment')).containers.find((c) => c.name === 'controller');
  assert.ok(container, 'the Deployment has a controller container');
  return container;
};
const envOf = (objects: Rendered[]): Map<string, string | undefined> =>
  new Map(
    (controllerOf(objects).env ?? []).map((e) => [
      e.name,
      e.value ?? (e.valueFrom?.secretKeyRef ? `secret:${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}` : undefined),
    ]),
  );

describe('chart: helm lint and helm template', () => {
  it('lints cleanly with the default values and with every option on', async () => {
    for (const args of [[], ['--values', ALL_ON]]) {
      const result = await helm(['lint', '--strict', CHART_DIR, ...args]);
      assert.equal(result.code, 0, `helm lint ${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it('renders the default install: 2 spread replicas, PDB, probes, limits, hardened pod, writable cache, bundled Redis', async () => {
    const objects = await renderChart();
    const deployment = findObject(objects, 'Deployment');
    assert.equal((deployment as unknown as { spec: { replicas: number } }).spec.replicas, 2);
    const pod = podSpecOf(deployment);
    assert.deepEqual(
      pod.topologySpreadConstraints?.map((t) => t.topologyKey),
      ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
    );
    assert.ok(pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, 'soft anti-affinity by default');
    assert.equal(findObject(objects, 'PodDisruptionBudget').kind, 'PodDisruptionBudget');
    assert.deepEqual((findObject(objects, 'PodDisruptionBudget') as unknown as { spec: { maxUnavailable: number } }).spec.maxUnavailable, 1);
    const container = controllerOf(objects);
    assert.equal(container.livenessProbe?.httpGet?.path, '/healthz');
    assert.equal(container.readinessProbe?.httpGet?.path, '/readyz');
    assert.ok(container.resources?.requests?.cpu && container.resources.requests.memory && container.resources.limits?.memory, 'requests and a memory limit');
    assert.deepEqual(
      { ...container.securityContext },
      {
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      },
    );
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.deepEqual(pod.securityContext.seccompProfile, { type: 'RuntimeDefault' });
    const mounts = new Map(container.volumeMounts?.map((m) => [m.name, m.mountPath]));
    assert.equal(mounts.get('git-cache'), '/var/cache/appset-git');
    assert.equal(mounts.get('tmp'), '/tmp');
    assert.ok(pod.volumes.find((v) => v.name === 'git-cache')?.emptyDir, 'the Git cache is an emptyDir');
    const env = envOf(objects);
    assert.equal(env.get('APPSET_GIT_CACHE_DIR'), '/var/cache/appset-git');
    assert.equal(env.get('APPSET_REDIS_URL'), 'redis://appset-appset-controller-redis:6379/0');
    assert.equal(env.get('APPSET_REDIS_PASSWORD'), 'secret:appset-appset-controller-redis/redis-password');
    assert.equal(pod.serviceAccountName, findObject(objects, 'ServiceAccount').metadata.name);
    const service = findObject(objects, 'Service', 'appset-appset-controller') as unknown as { spec: { ports: Array<{ name: string; port: number }> } };
    assert.deepEqual(
      service.spec.ports.map((p) => [p.name, p.port]),
      [['http', 8080]],
    );
    const redisArgs = (podSpecOf(findObject(objects, 'StatefulSet')).containers[0]?.args ?? []).join(' ');
    assert.match(redisArgs, /--maxmemory-policy noeviction/);
    assert.match(redisArgs, /--appendonly yes/);
    for (const kind of ['ServiceMonitor', 'NetworkPolicy', 'Ingress', 'ClusterRole', 'ClusterRoleBinding'])
      assert.equal(objects.filter((o) => o.kind === kind).length, 0, `no ${kind} by default`);
  });

  it('renders every option on: ServiceMonitor, NetworkPolicy, Ingress for the webhook only, webhook Secret, Sentinel TLS', async () => {
    const objects = await renderChart({ valuesFiles: [ALL_ON] });
    const monitor = findObject(objects, 'ServiceMonitor') as unknown as { spec: { endpoints: Array<{ port: string; path: string }> } };
    assert.deepEqual(
      monitor.spec.endpoints.map((e) => [e.port, e.path]),
      [['http', '/metrics']],
    );
    findObject(objects, 'NetworkPolicy', 'appset');
    const ingress = findObject(objects, 'Ingress') as unknown as {
      spec: { rules: Array<{ host: string; http: { paths: Array<{ path: string; pathType: string }> } }> };
    };
    assert.deepEqual(
      ingress.spec.rules[0]?.http.paths.map((p) => [p.path, p.pathType]),
      [['/api/webhook', 'Exact']],
    );
    const secret = findObject(objects, 'Secret', 'appset-webhook') as unknown as { metadata: { namespace: string }; stringData: Record<string, string> };
    assert.equal(secret.metadata.namespace, 'argocd');
    assert.deepEqual(Object.keys(secret.stringData).sort(), [
      'webhook.bitbucket.secret',
      'webhook.bitbucketserver.secret',
      'webhook.gitea.secret',
      'webhook.github.secret',
      'webhook.gitlab.secret',
    ]);
    const env = envOf(objects);
    assert.equal(env.get('APPSET_REDIS_SENTINELS'), 'sentinel-0.redis:26379,sentinel-1.redis:26379');
    assert.equal(env.get('APPSET_REDIS_TLS'), 'true');
    assert.equal(env.get('APPSET_REDIS_TLS_CA_FILE'), '/etc/appset/redis-ca/ca.crt');
    assert.equal(env.get('APPSET_REDIS_SENTINEL_PASSWORD'), 'secret:redis-auth/sentinel-password');
    assert.equal(env.get('APPSET_WEBHOOK_SECRET'), 'appset-webhook');
    assert.equal(env.get('APPSET_LISTEN_ADDRESS'), ':9090');
    assert.equal(env.get('KUBECONFIG'), '/etc/appset/kubeconfig/config');
    assert.equal(
      controllerOf(objects).image,
      'registry.example/platform/appset-controller@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    );
    assert.ok(podSpecOf(findObject(objects, 'Deployment')).affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, 'hard anti-affinity');
    assert.equal(objects.filter((o) => o.kind === 'StatefulSet').length, 0, 'no bundled Redis with Sentinels');
  });

  it('reaches every controller flag from values.yaml', async () => {
    const renders = await Promise.all([
      renderChart({ valuesFiles: [ALL_ON] }),
      renderChart({ set: ['redis.mode=external', 'redis.url=rediss://redis.example:6380/0', 'redis.auth.existingSecret=r', 'redis.tls.caSecret=ca'] }),
    ]);
    const seen = new Set(renders.flatMap((objects) => [...envOf(objects).keys()]));
    const missing = Object.values(controllerSettings)
      .filter((s) => !seen.has(s.env))
      .map((s) => `--${s.flag} ($${s.env})`);
    assert.deepEqual(missing, [], 'flags with no value in the chart');
  });

  it('keeps the in-memory queue to one replica and skips the CRDs on request', async () => {
    const single = await renderChart({ set: ['redis.mode=none', 'replicaCount=1', 'crds.install=false'] });
    assert.equal(single.filter((o) => o.kind === 'CustomResourceDefinition' || o.kind === 'StatefulSet' || o.kind === 'PodDisruptionBudget').length, 0);
    assert.equal(envOf(single).has('APPSET_REDIS_URL'), false);
    await assert.rejects(renderChart({ set: ['redis.mode=none'] }), /replicaCount/);
  });

  it('templates the repository CRDs unchanged, kept on uninstall', async () => {
    const files = readdirSync(REPO_CRDS)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    assert.deepEqual(readdirSync(join(CHART_DIR, 'files', 'crds')).sort(), files, 'the chart carries every CRD');
    for (const file of files)
      assert.equal(
        readFileSync(join(CHART_DIR, 'files', 'crds', file), 'utf8'),
        readFileSync(join(REPO_CRDS, file), 'utf8'),
        `files/crds/${file} is a copy of crds/${file}`,
      );
    const crds = (await renderChart()).filter((o) => o.kind === 'CustomResourceDefinition');
    for (const file of files) {
      const source = parse(readFileSync(join(REPO_CRDS, file), 'utf8')) as Rendered;
      const rendered = crds.find((c) => c.metadata.name === source.metadata.name);
      assert.ok(rendered, `${source.metadata.name} is rendered`);
      assert.equal(rendered.metadata.annotations?.['helm.sh/resource-policy'], 'keep');
      assert.deepEqual(
        { ...rendered, metadata: { ...rendered.metadata, annotations: undefined } },
        { ...source, metadata: { ...source.metadata, annotations: undefined } },
      );
    }
  });
});
