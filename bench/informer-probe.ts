// One measurement of bench/informer.ts, in a fresh process so its heap figure holds only one informer:
// node --expose-gc dist/bench/informer-probe.js <contender> <kubeconfig> <path> <expected objects>
// prints {"syncMs":…, "heapBytesPerObject":…} on stdout.
import { CustomObjectsApi, makeInformer, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { createInformer, dropManagedFields, type KubeObject } from '../src/kube/informer/index.js';
import { loadKubeConfig } from '../src/kube/kubeconfig.js';

/** A started informer as the benchmark sees it. */
interface Running {
  cached(): number;
  stop(): Promise<void>;
}

/** Contenders by name: each starts an informer and resolves once its first list is cached. */
const CONTENDERS: Record<string, (kc: KubeConfig, path: string) => Promise<Running>> = {
  'ours-paged-500': (kc, path) => startOurs(kc, path, 500),
  'ours-paged-500-drop-managed-fields': (kc, path) => startOurs(kc, path, 500, dropManagedFields),
  'ours-unpaged': (kc, path) => startOurs(kc, path, 1_000_000),
  'client-node-makeInformer': startClientNode,
};

async function startOurs(kc: KubeConfig, path: string, pageSize: number, transform?: (o: KubeObject) => KubeObject): Promise<Running> {
  const controller = new AbortController();
  const informer = createInformer<KubeObject>({ kc, path, pageSize, transform, signal: controller.signal });
  await informer.ready();
  return { cached: () => informer.store.size, stop: async () => (controller.abort(), await informer.stopped) };
}

async function startClientNode(kc: KubeConfig, path: string): Promise<Running> {
  const [, , group, version, , namespace, plural] = path.split('/');
  if (!group || !version || !namespace || !plural) throw new Error(`expected /apis/<group>/<version>/namespaces/<ns>/<plural>, got ${path}`);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const list = (): Promise<KubernetesListObject<KubernetesObject>> =>
    custom.listNamespacedCustomObject({ group, version, namespace, plural }) as Promise<KubernetesListObject<KubernetesObject>>;
  const informer = makeInformer(kc, path, list);
  await informer.start(); // resolves once the list is cached and the watch is open
  return { cached: () => informer.list().length, stop: () => informer.stop() };
}

async function main(): Promise<void> {
  const [contender, kubeconfig, path, expected] = process.argv.slice(2);
  const start = contender ? CONTENDERS[contender] : undefined;
  if (!start || !kubeconfig || !path || !expected) throw new Error(`usage: informer-probe <${Object.keys(CONTENDERS).join('|')}> <kubeconfig> <path> <objects>`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const kc = loadKubeConfig(kubeconfig);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const running = await start(kc, path);
  const syncMs = performance.now() - started;
  gc();
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const cached = running.cached();
  await running.stop();
  if (cached !== Number(expected)) throw new Error(`${contender} cached ${cached} objects, expected ${expected}`);
  console.log(JSON.stringify({ syncMs, heapBytesPerObject: (heapAfter - heapBefore) / cached }));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
