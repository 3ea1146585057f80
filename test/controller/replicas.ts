import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController, type StartOptions } from '../../src/app/start-replica.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import type { TestKubeConfig } from '../env/test-kube-config.js';

/** Controller replicas of one test, sharing one BullMQ queue on the test environment's Redis. */
export interface Replicas {
  readonly list: readonly RunningController[];
  /** Completed reconciles across the replicas, of one ApplicationSet or of all. */
  reconciles(name?: string): Promise<number>;
  /** The sum of one series (a sample line's name, optionally with a label filter) across the replicas' /metrics. */
  sample(series: string, labels?: string): Promise<number>;
  stop(): Promise<void>;
}

/** Starts `count` replicas watching `namespace`, with extra flags and per-replica start options. */
export async function startReplicas(
  kc: TestKubeConfig,
  namespace: string,
  count: number,
  flags: Record<string, string | boolean> = {},
  perReplica: (index: number) => StartOptions = () => ({}),
): Promise<Replicas> {
  const config = readControllerConfig(
    {
      namespace,
      'redis-url': sharedEnvironment().redisUrl,
      'listen-address': '127.0.0.1:0',
      'git-cache-dir': mkdtempSync(join(tmpdir(), 'replicas-git-')),
      'log-level': 'warn',
      ...flags,
    },
    {},
  );
  const queueName = `test-${randomBytes(4).toString('hex')}`;
  const list: RunningController[] = [];
  for (let i = 0; i < count; i++) list.push(await startController(config, kc, pino({ level: 'silent' }), { queueName, ...perReplica(i) }));
  await Promise.all(list.map((replica) => replica.ready));
  const sample = async (series: string, labels = ''): Promise<number> => {
    let total = 0;
    for (const replica of list) {
      // Over HTTP, as Prometheus scrapes it.
      const text = await (await fetch(`http://127.0.0.1:${replica.port}/metrics`)).text();
      for (const line of text.split('\n')) {
        const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
        if (match?.[1] === series && (match[2] ?? '').includes(labels)) total += Number(match[3]);
      }
    }
    return total;
  };
  return {
    list,
    reconciles: (name) => sample('argocd_appset_reconcile_count', name ? `name="${name}"` : ''),
    sample,
    stop: async () => void (await Promise.all(list.map((replica) => replica.stop(5_000)))),
  };
}

/** Small typed helpers over one namespace's Applications, ApplicationSets and Events. */
export function namespaceObjects(kc: TestKubeConfig, namespace: string) {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const G = { group: 'argoproj.io', version: 'v1alpha1', namespace };
  type App = {
    metadata: {
      name: string;
      uid: string;
      resourceVersion?: string;
      finalizers?: string[];
      deletionTimestamp?: string;
      ownerReferences?: Array<{ uid: string; name: string }>;
      labels?: Record<string, string>;
    };
    spec: { source: { path?: string } };
  };
  type Condition = { type: string; status: string; reason: string; message: string };
  type AppSet = {
    metadata: { uid: string; resourceVersion: string; annotations?: Record<string, string> };
    status?: { conditions?: Condition[]; resources?: unknown[] };
  };
  return {
    custom,
    G,
    async apps(prefix = ''): Promise<Map<string, App>> {
      const list = (await custom.listNamespacedCustomObject({ ...G, plural: 'applications' })) as { items: App[] };
      return new Map(list.items.filter((app) => app.metadata.name.startsWith(prefix)).map((app) => [app.metadata.name, app]));
    },
    async liveNames(prefix: string): Promise<string> {
      const apps = [...(await this.apps(prefix)).values()].filter((app) => !app.metadata.deletionTimestamp);
      return apps
        .map((app) => app.metadata.name)
        .sort()
        .join(',');
    },
    async appset(name: string): Promise<AppSet> {
      return (await custom.getNamespacedCustomObject({ ...G, plural: 'applicationsets', name })) as AppSet;
    },
    async condition(name: string, type: string): Promise<Condition | undefined> {
      return (await this.appset(name)).status?.conditions?.find((c) => c.type === type);
    },
    async createAppSet(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Promise<void> {
      await custom.createNamespacedCustomObject({
        ...G,
        plural: 'applicationsets',
        body: { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name, namespace, ...metadata }, spec },
      });
    },
    async events(involvedName?: string): Promise<Array<{ reason?: string; message?: string; type?: string; source?: { component?: string } }>> {
      const list = await kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace });
      return list.items.filter((e) => involvedName === undefined || e.involvedObject.name === involvedName);
    },
  };
}
