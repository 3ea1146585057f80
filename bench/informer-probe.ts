// One measurement of bench/informer.ts, in a fresh process so its heap figure holds only one informer:
// node --expose-gc dist/bench/informer-probe.js <contender> <kubeconfig> <path> <expected objects>
// prints {"syncMs":…, "clientCpuMs":…, "heapGrowthPerObject":…, "heapFreedAtStopPerObject":…} on stdout.
import { CustomObjectsApi, makeInformer, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { createInformer, DEFAULT_PAGE_SIZE, dropManagedFields, type KubeObject } from '../src/kube/informer/index.js';
import { testKubeConfig, type TestKubeConfig } from '../test/env/test-kube-config.js';
import { createKubeTransport } from '../src/kube/transport/transport.js';

/** A started informer as the benchmark sees it. */
interface Running {
  cached(): number;
  stop(): Promise<void>;
}

/** Contenders by name: each starts an informer and resolves once its first list is cached. */
const CONTENDERS: Record<string, (kc: TestKubeConfig, path: string) => Promise<Running>> = {
  'ours-default': (kc, path) => startOurs(kc, path),
  'ours-default-drop-managed-fields': (kc, path) => startOurs(kc, path, undefined, dropManagedFields),
  'ours-paged-500': (kc, path) => startOurs(kc, path, 500),
  'ours-unpaged': (kc, path) => startOurs(kc, path, 1_000_000),
  'client-node-makeInformer': (kc, path) => startClientNode(kc, path),
  'client-node-makeInformer-paged': (kc, path) => startClientNode(kc, path, DEFAULT_PAGE_SIZE),
};

async function startOurs(kc: TestKubeConfig, path: string, pageSize?: number, transform?: (o: KubeObject) => KubeObject): Promise<Running> {
  const controller = new AbortController();
  const informer = createInformer<KubeObject>({ transport: createKubeTransport(kc), path, pageSize, transform, signal: controller.signal });
  await informer.ready();
  return { cached: () => informer.store.size, stop: async () => (controller.abort(), await informer.stopped) };
}

/**
 * client-node's makeInformer over its CustomObjectsApi list: in one request, or (`pageSize`) paged the way
 * a caller would write it, continue token after continue token, every page's items joined into one list.
 */
async function startClientNode(kc: TestKubeConfig, path: string, pageSize?: number): Promise<Running> {
  const [, , group, version, , namespace, plural] = path.split('/');
  if (!group || !version || !namespace || !plural) throw new Error(`expected /apis/<group>/<version>/namespaces/<ns>/<plural>, got ${path}`);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const page = (_continue?: string): Promise<KubernetesListObject<KubernetesObject>> =>
    custom.listNamespacedCustomObject({ group, version, namespace, plural, limit: pageSize, _continue }) as Promise<KubernetesListObject<KubernetesObject>>;
  // Custom objects come back as plain JSON, so the token is `metadata.continue` (typed lists: `_continue`).
  const tokenOf = (list: KubernetesListObject<KubernetesObject>): string | undefined =>
    (list.metadata as { continue?: string } | undefined)?.continue || undefined;
  const list = async (): Promise<KubernetesListObject<KubernetesObject>> => {
    const first = await page();
    for (let token = tokenOf(first); token;) {
      const next = await page(token);
      for (const item of next.items) first.items.push(item);
      first.metadata = next.metadata;
      token = tokenOf(next);
    }
    return first;
  };
  const informer = makeInformer(kc, path, list);
  await informer.start(); // resolves once the list is cached and the watch is open
  return { cached: () => informer.list().length, stop: () => informer.stop() };
}

/** Starts an informer, measures it synced, stops it; the informer is unreachable once this returns. */
async function syncMeasureAndStop(
  start: () => Promise<Running>,
  gc: () => void,
): Promise<{ syncMs: number; clientCpuMs: number; heapWithCache: number; cached: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const running = await start();
  const syncMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  gc();
  gc();
  const heapWithCache = process.memoryUsage().heapUsed;
  const cached = running.cached();
  await running.stop();
  return { syncMs, clientCpuMs: (cpu.user + cpu.system) / 1000, heapWithCache, cached };
}

async function main(): Promise<void> {
  const [contender, kubeconfig, path, expected] = process.argv.slice(2);
  const start = contender ? CONTENDERS[contender] : undefined;
  if (!start || !kubeconfig || !path || !expected)
    throw new Error(`usage: informer-probe <${Object.keys(CONTENDERS).join('|')}> <kubeconfig> <path> <objects>`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const kc = testKubeConfig(kubeconfig);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const { syncMs, clientCpuMs, heapWithCache, cached } = await syncMeasureAndStop(() => start(kc, path), gc);
  gc();
  gc();
  const heapAfterStop = process.memoryUsage().heapUsed;
  if (cached !== Number(expected)) throw new Error(`${contender} cached ${cached} objects, expected ${expected}`);
  // Growth during the sync is the comparable figure, but it also counts the code the JIT compiled on the
  // way, which stays and does not scale with the objects. What stopping frees is the cache alone, when the
  // stopped informer becomes unreachable at once (ours does; client-node's does not within this probe).
  const heapGrowthPerObject = (heapWithCache - heapBefore) / cached;
  console.log(JSON.stringify({ syncMs, clientCpuMs, heapGrowthPerObject, heapFreedAtStopPerObject: (heapWithCache - heapAfterStop) / cached }));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
