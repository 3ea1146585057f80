// Benchmark: initial sync time and heap per cached object of our informer against client-node's
// makeInformer, side by side on the same private API server holding 10,000 Applications. Each
// measurement runs in a fresh process (bench/informer-probe.ts), so a heap figure holds one informer only.
// Run: npm run bench:informer (node dist/bench/informer.js). Results: bench/results/informer.json.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readBody } from '../src/kube/transport/api-errors.js';
import { createKubeTransport } from '../src/kube/transport/transport.js';
import { DEFAULT_PAGE_SIZE } from '../src/kube/informer/reflector.js';
import { testKubeConfig } from '../test/env/test-kube-config.js';
import { TestEnvironment } from '../src/environment/local/environment.js';
import { sampleApplication } from '../test/fixtures.js';
import { ApiWriter } from '../test/kube/informer/cluster-objects.js';
import { writeBenchResults } from './results-file.js';
import { median } from './statistics.js';
import type { KubeConfig } from '../src/kube/kubeconfig.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const NAMESPACE = 'bench-informer';
const PATH = `/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/applications`;

/** What one measurement found. */
interface Sample {
  syncMs: number;
  /** CPU time of the informer's process during the sync: its parsing, freezing and caching. */
  clientCpuMs: number;
  /** CPU time kube-apiserver and etcd spent meanwhile: what serving the list cost the server. */
  serverCpuMs: number;
  /** Heap growth from before the start to the synced cache, per object: the comparable figure. */
  heapGrowthPerObject: number;
  /** Heap freed by stopping and dropping the informer, per object: the cache alone, without JIT code. */
  heapFreedAtStopPerObject: number;
  /** Objects the API server read from etcd for the sync; the rest came from its watch cache. */
  etcdObjects: number;
}

const CONTENDERS = [
  'ours-default',
  'ours-default-drop-managed-fields',
  'ours-paged-500',
  'ours-unpaged',
  'client-node-makeInformer-paged',
  'client-node-makeInformer',
] as const;
const BASELINE = 'client-node-makeInformer';
const DESCRIPTIONS: Record<(typeof CONTENDERS)[number], string> = {
  'ours-default': `createInformer, pages of ${DEFAULT_PAGE_SIZE.toLocaleString('en')} (default)`,
  'ours-default-drop-managed-fields': `createInformer, pages of ${DEFAULT_PAGE_SIZE.toLocaleString('en')}, transform: dropManagedFields`,
  'ours-paged-500': "createInformer, pages of 500 (client-go's page size)",
  'ours-unpaged': 'createInformer, one page',
  'client-node-makeInformer-paged': `client-node 1.4.0 makeInformer, its list function paging by ${DEFAULT_PAGE_SIZE.toLocaleString('en')}`,
  'client-node-makeInformer': 'client-node 1.4.0 makeInformer (one list, no paging)',
};
const probe = fileURLToPath(new URL('./informer-probe.js', import.meta.url));

async function measure(contender: string, kubeconfig: string, serverPids: number[]): Promise<Sample> {
  const kc = testKubeConfig(kubeconfig);
  const etcdBefore = await etcdListedObjects(kc);
  const serverBefore = cpuMsOf(serverPids);
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', probe, contender, kubeconfig, PATH, String(OBJECTS)]);
  // Taken after the probe exits, so it also counts serving the watch it opened; the same for every contender.
  const serverCpuMs = cpuMsOf(serverPids) - serverBefore;
  return { ...(JSON.parse(stdout) as Omit<Sample, 'serverCpuMs' | 'etcdObjects'>), serverCpuMs, etcdObjects: (await etcdListedObjects(kc)) - etcdBefore };
}

/**
 * Applications the API server has read from etcd for lists so far (its storage metric). A list it serves
 * from its watch cache reads none: a consistent list without `limit` is served there, while the continued
 * pages of a paginated list are read from etcd, where each object is also decoded again.
 */
async function etcdListedObjects(kc: KubeConfig): Promise<number> {
  const metrics = (await readBody(await createKubeTransport(kc).stream('/metrics', {}, AbortSignal.timeout(60_000)))).toString('utf8');
  const line = metrics.split('\n').find((l) => l.startsWith('apiserver_storage_list_fetched_objects_total{') && l.includes('resource="applications"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
}

/** User plus system CPU of the processes, from /proc/<pid>/stat (clock ticks of 10 ms on Linux). */
function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

async function populate(env: TestEnvironment): Promise<number> {
  const writer = new ApiWriter(env.info(), 32);
  try {
    const started = performance.now();
    await writer.send('POST', '/api/v1/namespaces', { metadata: { name: NAMESPACE } });
    await writer.createAll(
      PATH,
      Array.from({ length: OBJECTS }, (_, i) => sampleApplication(NAMESPACE, `app-${String(i).padStart(5, '0')}`)),
      32,
    );
    return (performance.now() - started) / 1000;
  } finally {
    writer.close();
  }
}

async function run(env: TestEnvironment): Promise<void> {
  const createSeconds = await populate(env);
  console.log(`created ${OBJECTS} Applications in ${createSeconds.toFixed(1)} s`);
  const kubeconfig = env.apiServer.kubeconfigPath;
  const serverPids = [env.apiServer.process.pid, env.etcd.process.pid].filter((pid): pid is number => pid !== undefined);
  const samples = new Map<string, Sample[]>(CONTENDERS.map((c) => [c, []]));
  for (const contender of CONTENDERS) await measure(contender, kubeconfig, serverPids); // warm-up: the API server's caches
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no contender always runs right after the same neighbour.
    const order = [...CONTENDERS.slice(round % CONTENDERS.length), ...CONTENDERS.slice(0, round % CONTENDERS.length)];
    for (const contender of order) samples.get(contender)?.push(await measure(contender, kubeconfig, serverPids));
    process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  report(samples, createSeconds);
}

/** Medians of one contender's samples, and the samples themselves. */
function summarize(name: string, list: Sample[], baseline: Sample[]) {
  const med = (pick: (s: Sample) => number): number => Math.round(median(list.map(pick)));
  const syncs = list.map((s) => s.syncMs);
  return {
    name,
    syncMsMedian: med((s) => s.syncMs),
    syncMsMin: Math.round(Math.min(...syncs)),
    syncMsMax: Math.round(Math.max(...syncs)),
    // Each round runs every contender back to back, so the ratio within a round shares that round's load.
    pairedSyncRatioMedian: +median(list.map((s, i) => s.syncMs / (baseline[i]?.syncMs ?? NaN))).toFixed(2),
    clientCpuMsMedian: med((s) => s.clientCpuMs),
    serverCpuMsMedian: med((s) => s.serverCpuMs),
    heapGrowthPerObjectMedian: med((s) => s.heapGrowthPerObject),
    heapFreedAtStopPerObjectMedian: med((s) => s.heapFreedAtStopPerObject),
    etcdObjectsMedian: med((s) => s.etcdObjects),
    samples: list.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]: [string, number]) => [k, Math.round(v)]))),
  };
}

function report(samples: Map<string, Sample[]>, createSeconds: number): void {
  const baselineSamples = samples.get(BASELINE) ?? [];
  const summary = [...samples].map(([name, list]) => summarize(name, list, baselineSamples));
  const baseline = summary.find((s) => s.name === BASELINE);
  const ratio = (value: number, base: number | undefined): number => (base ? +(value / base).toFixed(2) : NaN);
  const rows = summary.map((s) => ({
    contender: s.name,
    what: DESCRIPTIONS[s.name as (typeof CONTENDERS)[number]],
    'sync ms': s.syncMsMedian,
    'sync min..max': `${s.syncMsMin}..${s.syncMsMax}`,
    'sync ratio': ratio(s.syncMsMedian, baseline?.syncMsMedian),
    'paired sync ratio': s.pairedSyncRatioMedian,
    'client CPU ms': s.clientCpuMsMedian,
    'client CPU ratio': ratio(s.clientCpuMsMedian, baseline?.clientCpuMsMedian),
    'server CPU ms': s.serverCpuMsMedian,
    'read from etcd': s.etcdObjectsMedian,
    'heap growth B/obj': s.heapGrowthPerObjectMedian,
    'heap ratio': ratio(s.heapGrowthPerObjectMedian, baseline?.heapGrowthPerObjectMedian),
    // client-node's stopped informer stays reachable for a while, so stopping it frees nothing measurable here.
    'freed at stop B/obj': s.name === BASELINE ? 'n/a' : s.heapFreedAtStopPerObjectMedian,
  }));
  console.log('medians; ratios are against client-node measured in the same run (lower is better)');
  console.table(rows);
  const file = writeBenchResults('informer', {
    objects: OBJECTS,
    rounds: ROUNDS,
    kind: 'argoproj.io/v1alpha1 Application',
    createSeconds: +createSeconds.toFixed(1),
    results: rows,
    samples: summary,
  });
  console.log(`results written to ${file}`);
}

async function main(): Promise<void> {
  const env = await TestEnvironment.start();
  try {
    await run(env);
  } finally {
    await env.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench informer failed:', error);
    process.exit(1);
  },
);
