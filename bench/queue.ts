// Queue benchmark: throughput (keys/s) and add→start latency of the in-memory queue, of plain BullMQ
// (the baseline: no deduplication, priorities or backoff) and of the BullMQ work queue, with 1 and 3
// worker processes, side by side in one run on a private redis-server; the work queue ÷ plain BullMQ
// ratios; the Redis commands each costs per key and the ceiling redis-benchmark gives for the mix.
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
import { PlainBullMqProducer, plainWorkerScript } from './queue-plain.js';
import { readRuns } from '../test/queue/worker-records.js';
import { writeBenchResults } from './results-file.js';
import { commandStats, countsBetween, keysPerSecondCeiling, redisBenchmarkRates, topLevelCommandsDuring, total, type CommandCounts } from './queue-redis.js';
import { roundTo as round } from './statistics.js';

const KEYS = Number(process.env.QUEUE_BENCH_KEYS ?? 20_000);
/** Rounds of plain-then-queue pairs per process count; ratios are medians over them. */
const ROUNDS = Number(process.env.QUEUE_BENCH_ROUNDS ?? 2);
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

/** A queue on Redis the benchmark drives: this work queue or the plain BullMQ baseline. */
interface RedisSubject {
  label: string;
  /** Worker program; undefined = this queue's (test/queue/worker-process.ts). */
  script?: string;
  producer(redisUrl: string, name: string): { add(key: string): Promise<void>; close(): Promise<void> };
}

const THIS_QUEUE: RedisSubject = { label: 'queue', producer: (url, name) => new BullMqWorkQueue({ name, connection: { url } }) };
const PLAIN: RedisSubject = { label: 'plain bullmq', script: plainWorkerScript, producer: (url, name) => new PlainBullMqProducer(url, name) };

let queueNumber = 0;

async function benchBullMq(redisUrl: string, subject: RedisSubject, processes: number, dir: string): Promise<{ figures: Figures[]; commands: CommandCounts }> {
  const name = `bench-${queueNumber++}`;
  const label = `${subject.label}, ${processes} worker process${processes > 1 ? 'es' : ''}`;
  const recordFile = join(dir, `${name}.tsv`);
  const workers = new WorkerProcesses(subject.script);
  await workers.start(processes, { redisUrl, name, recordFile, concurrency: CONCURRENCY, maxHandlerMs: 0 });
  const producer = subject.producer(redisUrl, name);
  const ended = (): number => readRuns(recordFile).filter((run) => run.end !== undefined).length;
  try {
    const before = await commandStats(redisUrl);
    const begin = preciseNow();
    const addedAt = await addAll(producer, keyList(name), PARALLEL_ADDS);
    await waitFor(() => ended() >= KEYS, { what: `${name} to run every key`, timeoutMs: 300_000, intervalMs: 100 });
    const commands = countsBetween(before, await commandStats(redisUrl));
    const runs = readRuns(recordFile);
    const end = Math.max(...runs.map((run) => run.end ?? 0));
    const saturated = figures(label, addedAt, new Map(runs.map((run) => [run.key, run.start])), begin, end);
    const pacedAdds = await addPaced((key) => producer.add(key), keyList(`${name}-paced`).slice(0, PACED_KEYS), PACED_GAP_MS);
    await waitFor(() => ended() >= KEYS + PACED_KEYS, { what: `${name} paced keys`, timeoutMs: 60_000, intervalMs: 100 });
    const paced = pacedFigures(label, pacedAdds, new Map(readRuns(recordFile).map((run) => [run.key, run.start])));
    return { figures: [saturated, paced], commands };
  } finally {
    await producer.close();
    await workers.stopAll();
  }
}

/** A small extra run under MONITOR, to split client round trips from the commands scripts run inside Redis. */
async function roundTripsPerKey(redisUrl: string, subject: RedisSubject, dir: string): Promise<{ client: CommandCounts; script: CommandCounts }> {
  const keys = 500;
  const name = `bench-monitor-${queueNumber++}`;
  const recordFile = join(dir, `${name}.tsv`);
  const workers = new WorkerProcesses(subject.script);
  await workers.start(1, { redisUrl, name, recordFile, concurrency: CONCURRENCY, maxHandlerMs: 0 });
  const producer = subject.producer(redisUrl, name);
  const ended = (): number => readRuns(recordFile).filter((run) => run.end !== undefined).length;
  try {
    // One key first, so every connection is up and the queue's meta written before MONITOR starts:
    // set-up is not a per-key cost, and ioredis misreads a MONITOR line that races with its set-up replies.
    await producer.add('warm-up');
    await waitFor(() => ended() >= 1, { what: 'warm-up run', timeoutMs: 60_000 });
    const seen = await topLevelCommandsDuring(redisUrl, async () => {
      await addAll(
        producer,
        Array.from({ length: keys }, (_, i) => workerKey(i)),
        PARALLEL_ADDS,
      );
      await waitFor(() => ended() >= keys + 1, { what: 'monitored run', timeoutMs: 60_000 });
    });
    const perKey = (counts: CommandCounts): CommandCounts => Object.fromEntries(Object.entries(counts).map(([c, n]) => [c, round(n / keys)]));
    return { client: perKey(seen.clientCommands), script: perKey(seen.scriptCommands) };
  } finally {
    await producer.close();
    await workers.stopAll();
  }
}

/** One round for one process count: the plain baseline, run right before this queue. */
interface Round {
  processes: number;
  plain: { figures: Figures[]; commands: CommandCounts };
  queue: { figures: Figures[]; commands: CommandCounts };
}

const throughput = (f: Figures | undefined): number => f?.keysPerSecond ?? Number.NaN;
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** This queue ÷ plain BullMQ, per round and the median, for `processes` worker processes. */
function versusPlain(rounds: Round[], processes: number): { perRound: number[]; median: number } {
  const perRound = rounds.filter((r) => r.processes === processes).map((r) => round(throughput(r.queue.figures[0]) / throughput(r.plain.figures[0])));
  return { perRound, median: round(median(perRound)) };
}

async function main(): Promise<void> {
  const run = createRunDir();
  const redis = await startRedis(run);
  try {
    const memory = await benchMemory();
    const rounds: Round[] = [];
    // Plain and this queue alternate, so a change in the machine's load hits both sides of a ratio alike.
    for (let r = 0; r < ROUNDS; r++) {
      for (const processes of [1, 3]) {
        const plain = await benchBullMq(redis.url, PLAIN, processes, run.root);
        const queue = await benchBullMq(redis.url, THIS_QUEUE, processes, run.root);
        rounds.push({ processes, plain, queue });
      }
    }
    const plainTrips = await roundTripsPerKey(redis.url, PLAIN, run.root);
    const trips = await roundTripsPerKey(redis.url, THIS_QUEUE, run.root);
    const rates = redisBenchmarkRates(redis.port);
    const ceiling = Math.round(keysPerSecondCeiling(trips.client, rates));
    const rows = [...memory, ...rounds.flatMap((r) => [...r.plain.figures, ...r.queue.figures])];
    console.table(rows);
    const [memSat] = memory;
    const medianOf = (processes: number, side: 'plain' | 'queue'): number =>
      median(rounds.filter((r) => r.processes === processes).map((r) => throughput(r[side].figures[0])));
    const one = versusPlain(rounds, 1);
    const three = versusPlain(rounds, 3);
    const ratios = {
      queueVsPlainBullmq1Process: one.median,
      queueVsPlainBullmq3Processes: three.median,
      queueVsPlainBullmq1ProcessPerRound: one.perRound,
      queueVsPlainBullmq3ProcessesPerRound: three.perRound,
      queue3VsQueue1Throughput: round(medianOf(3, 'queue') / medianOf(1, 'queue')),
      queue1VsMemoryThroughput: round(medianOf(1, 'queue') / throughput(memSat)),
      queue1VsRedisBenchmarkCeiling: round(medianOf(1, 'queue') / ceiling),
      queue3VsRedisBenchmarkCeiling: round(medianOf(3, 'queue') / ceiling),
    };
    const perKeyOfRuns = (side: 'plain' | 'queue', processes: number): number =>
      round(median(rounds.filter((r) => r.processes === processes).map((r) => total(r[side].commands) / KEYS)));
    const redisFigures = {
      clientRoundTripsPerKey: round(total(trips.client)),
      scriptCommandsPerKey: round(total(trips.script)),
      clientCommandsPerKey: trips.client,
      scriptCommandsPerKeyByName: trips.script,
      plainBullmq: {
        clientRoundTripsPerKey: round(total(plainTrips.client)),
        scriptCommandsPerKey: round(total(plainTrips.script)),
        clientCommandsPerKey: plainTrips.client,
        scriptCommandsPerKeyByName: plainTrips.script,
      },
      commandstatsCallsPerKey: {
        queue1: perKeyOfRuns('queue', 1),
        queue3: perKeyOfRuns('queue', 3),
        plain1: perKeyOfRuns('plain', 1),
        plain3: perKeyOfRuns('plain', 3),
      },
      redisBenchmarkRequestsPerSecond: rates,
      redisBenchmarkCeilingKeysPerSecond: ceiling,
    };
    console.log('ratios:', ratios);
    console.log('redis:', { ...redisFigures, redisBenchmarkRequestsPerSecond: undefined });
    const file = writeBenchResults('queue', {
      keys: KEYS,
      rounds: ROUNDS,
      concurrencyPerProcess: CONCURRENCY,
      plainBaseline: 'bullmq Queue.add(name, { key, dueAt }, { removeOnComplete: true, removeOnFail: true }); Worker with a no-op handler',
      results: rows,
      ratios,
      redis: redisFigures,
    });
    console.log(`written to ${file}`);
  } finally {
    await redis.process.stop();
    rmSync(run.root, { recursive: true, force: true });
  }
}

await main();
