// Queue benchmark: throughput (keys/s) and add→start latency of the in-memory queue and of the BullMQ
// queue with 1 and 3 worker processes, side by side in one run, on a private redis-server; plus the
// Redis commands BullMQ costs per key and the ceiling redis-benchmark gives for that command mix.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BullMqWorkQueue } from '../src/queue/bullmq-queue.js';
import { MemoryWorkQueue } from '../src/queue/memory-queue.js';
import { startRedis } from '../src/environment/local/redis.js';
import { createRunDir } from '../src/environment/local/run-dir.js';
import { waitFor } from '../src/environment/local/wait-for.js';
import { addAll } from '../test/queue/load.js';
import { preciseNow, workerKey } from '../test/queue/worker-config.js';
import { WorkerProcesses } from '../test/queue/worker-processes.js';
import { readRuns } from '../test/queue/worker-records.js';
import { writeBenchResults } from './results-file.js';
import { commandStats, countsBetween, keysPerSecondCeiling, redisBenchmarkRates, topLevelCommandsDuring, total, type CommandCounts } from './queue-redis.js';
import { roundTo as round } from './statistics.js';

const KEYS = Number(process.env.QUEUE_BENCH_KEYS ?? 20_000);
const CONCURRENCY = 50;
const PARALLEL_ADDS = 64;
const PACED_KEYS = 1_000;
const PACED_GAP_MS = 2;

interface Figures {
  subject: string;
  keys: number;
  seconds: number;
  keysPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function figures(subject: string, addedAt: Map<string, number>, starts: Map<string, number>, begin: number, end: number): Figures {
  const latencies = [...starts].map(([key, start]) => start - (addedAt.get(key) ?? start)).sort((a, b) => a - b);
  const seconds = (end - begin) / 1000;
  return {
    subject,
    keys: starts.size,
    seconds: round(seconds),
    keysPerSecond: Math.round(starts.size / seconds),
    latencyP50Ms: round(percentile(latencies, 50)),
    latencyP99Ms: round(percentile(latencies, 99)),
  };
}

const keyList = (prefix: string): string[] => Array.from({ length: KEYS }, (_, i) => `${prefix}-${workerKey(i)}`);

/** Adds `count` keys one at a time, `gapMs` apart: a load the queue keeps up with, for unsaturated latency. */
async function addPaced(add: (key: string) => Promise<void>, keys: string[], gapMs: number): Promise<Map<string, number>> {
  const addedAt = new Map<string, number>();
  for (const key of keys) {
    addedAt.set(key, preciseNow());
    await add(key);
    await sleep(gapMs);
  }
  return addedAt;
}

async function benchMemory(): Promise<Figures[]> {
  const queue = new MemoryWorkQueue({ concurrency: CONCURRENCY });
  const starts = new Map<string, number>();
  const ends = new Map<string, number>();
  queue.process(async (key) => {
    starts.set(key, preciseNow());
    await Promise.resolve();
    ends.set(key, preciseNow());
  });
  const keys = keyList('mem');
  const addedAt = new Map<string, number>();
  const begin = preciseNow();
  for (const key of keys) {
    addedAt.set(key, preciseNow());
    await queue.add(key);
  }
  await waitFor(() => ends.size === KEYS, { what: 'memory queue to run every key', timeoutMs: 120_000, intervalMs: 5 });
  const saturated = figures('memory, 1 process', addedAt, starts, begin, Math.max(...ends.values()));
  const pacedKeys = keyList('mem-paced').slice(0, PACED_KEYS);
  const pacedAdds = await addPaced((key) => queue.add(key), pacedKeys, PACED_GAP_MS);
  await waitFor(() => pacedKeys.every((key) => ends.has(key)), { what: 'paced keys', timeoutMs: 60_000 });
  await queue.close();
  return [saturated, pacedFigures('memory, 1 process', pacedAdds, starts)];
}

function pacedFigures(subject: string, addedAt: Map<string, number>, allStarts: Map<string, number>): Figures {
  const starts = new Map([...addedAt.keys()].map((key) => [key, allStarts.get(key) ?? Number.NaN]));
  const begin = Math.min(...addedAt.values());
  return { ...figures(`${subject}, paced`, addedAt, starts, begin, Math.max(...starts.values())), keysPerSecond: Number.NaN };
}

async function benchBullMq(redisUrl: string, processes: number, dir: string): Promise<{ figures: Figures[]; commands: CommandCounts }> {
  const name = `bench-${processes}`;
  const subject = `bullmq, ${processes} worker process${processes > 1 ? 'es' : ''}`;
  const recordFile = join(dir, `${name}.tsv`);
  const workers = new WorkerProcesses();
  await workers.start(processes, { redisUrl, name, recordFile, concurrency: CONCURRENCY, maxHandlerMs: 0 });
  const producer = new BullMqWorkQueue({ name, connection: { url: redisUrl } });
  const ended = (): number => readRuns(recordFile).filter((run) => run.end !== undefined).length;
  try {
    const before = await commandStats(redisUrl);
    const begin = preciseNow();
    const addedAt = await addAll(producer, keyList(name), PARALLEL_ADDS);
    await waitFor(() => ended() >= KEYS, { what: `${name} to run every key`, timeoutMs: 300_000, intervalMs: 100 });
    const commands = countsBetween(before, await commandStats(redisUrl));
    const runs = readRuns(recordFile);
    const end = Math.max(...runs.map((run) => run.end ?? 0));
    const saturated = figures(subject, addedAt, new Map(runs.map((run) => [run.key, run.start])), begin, end);
    const pacedAdds = await addPaced((key) => producer.add(key), keyList(`${name}-paced`).slice(0, PACED_KEYS), PACED_GAP_MS);
    await waitFor(() => ended() >= KEYS + PACED_KEYS, { what: `${name} paced keys`, timeoutMs: 60_000, intervalMs: 100 });
    const paced = pacedFigures(subject, pacedAdds, new Map(readRuns(recordFile).map((run) => [run.key, run.start])));
    return { figures: [saturated, paced], commands };
  } finally {
    await producer.close();
    await workers.stopAll();
  }
}

/** A small extra run under MONITOR, to split client round trips from the commands scripts run inside Redis. */
async function roundTripsPerKey(redisUrl: string, dir: string): Promise<{ client: CommandCounts; script: CommandCounts }> {
  const keys = 500;
  const name = 'bench-monitor';
  const recordFile = join(dir, `${name}.tsv`);
  const workers = new WorkerProcesses();
  await workers.start(1, { redisUrl, name, recordFile, concurrency: CONCURRENCY, maxHandlerMs: 0 });
  const producer = new BullMqWorkQueue({ name, connection: { url: redisUrl } });
  try {
    const seen = await topLevelCommandsDuring(redisUrl, async () => {
      await addAll(
        producer,
        Array.from({ length: keys }, (_, i) => workerKey(i)),
        PARALLEL_ADDS,
      );
      await waitFor(() => readRuns(recordFile).filter((run) => run.end !== undefined).length >= keys, { what: 'monitored run', timeoutMs: 60_000 });
    });
    const perKey = (counts: CommandCounts): CommandCounts => Object.fromEntries(Object.entries(counts).map(([c, n]) => [c, round(n / keys)]));
    return { client: perKey(seen.clientCommands), script: perKey(seen.scriptCommands) };
  } finally {
    await producer.close();
    await workers.stopAll();
  }
}

async function main(): Promise<void> {
  const run = createRunDir();
  const redis = await startRedis(run);
  try {
    const memory = await benchMemory();
    const one = await benchBullMq(redis.url, 1, run.root);
    const three = await benchBullMq(redis.url, 3, run.root);
    const trips = await roundTripsPerKey(redis.url, run.root);
    const rates = redisBenchmarkRates(redis.port);
    const ceiling = Math.round(keysPerSecondCeiling(trips.client, rates));
    const rows = [...memory, ...one.figures, ...three.figures];
    console.table(rows);
    const [memSat] = memory;
    const [oneSat] = one.figures;
    const [threeSat] = three.figures;
    const throughput = (f: Figures | undefined): number => f?.keysPerSecond ?? Number.NaN;
    const ratios = {
      bullmq3VsBullmq1Throughput: round(throughput(threeSat) / throughput(oneSat)),
      bullmq1VsMemoryThroughput: round(throughput(oneSat) / throughput(memSat)),
      bullmq1VsRedisBenchmarkCeiling: round(throughput(oneSat) / ceiling),
      bullmq3VsRedisBenchmarkCeiling: round(throughput(threeSat) / ceiling),
    };
    const redisFigures = {
      clientRoundTripsPerKey: round(total(trips.client)),
      scriptCommandsPerKey: round(total(trips.script)),
      clientCommandsPerKey: trips.client,
      commandstatsCallsPerKey3Workers: round(total(three.commands) / KEYS),
      redisBenchmarkRequestsPerSecond: rates,
      redisBenchmarkCeilingKeysPerSecond: ceiling,
    };
    console.log('ratios:', ratios);
    console.log('redis:', { ...redisFigures, redisBenchmarkRequestsPerSecond: undefined });
    const file = writeBenchResults('queue', {
      keys: KEYS,
      concurrencyPerProcess: CONCURRENCY,
      results: rows,
      ratios,
      redis: redisFigures,
      commandstatsPerRun: { bullmq1: one.commands, bullmq3: three.commands },
    });
    console.log(`written to ${file}`);
  } finally {
    await redis.process.stop();
    rmSync(run.root, { recursive: true, force: true });
  }
}

await main();
