// Fair sharing between tenants on the BullMQ work queue, on a private redis-server: a quiet tenant's
// add-to-start latency (p50, p99) alone, next to a noisy tenant whose 5,000 ApplicationSets requeue
// themselves after every run (the queue never empties), with fair sharing on and, for contrast, off
// (plain FIFO). Phases alternate in one run so drifting machine load hits both sides alike. A quiet
// key that never started in the FIFO phase counts with the time it waited so far (a lower bound).
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BullMqWorkQueue } from '../src/queue/bullmq-queue.js';
import { startRedis } from '../src/environment/local/redis.js';
import { createRunDir } from '../src/environment/local/run-dir.js';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const NOISY_APPSETS = 5_000;
const QUIET_APPSETS = 3;
const CONCURRENCY = 16;
/** Simulated reconcile time of every key (a real reconcile reads caches, renders, maybe writes). */
const WORK_MS = 50;
const QUIET_ADD_EVERY_MS = 25;
const WARMUP_MS = 4_000;
const MEASURE_MS = 8_000;
const ROUNDS = 3;

type Phase = 'quiet alone' | 'noisy, fair share' | 'noisy, FIFO';

interface PhaseFigures {
  /** Every latency sample, for the pooled percentiles (dropped from the printed table). */
  latencies: number[];
  phase: Phase;
  round: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  noisyRunsPerSecond: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** One phase: its own queue name; a worker replica plus a producer replica for the quiet tenant's adds. */
async function runPhase(redisUrl: string, phase: Phase, round: number): Promise<PhaseFigures> {
  const name = `fair-share-${round}-${phase.replace(/\W+/g, '-')}-${Date.now()}`;
  const fairShare = phase !== 'noisy, FIFO';
  const noisy = phase !== 'quiet alone';
  const worker = new BullMqWorkQueue({ name, connection: { url: redisUrl }, concurrency: CONCURRENCY, fairShare });
  const producer = new BullMqWorkQueue({ name, connection: { url: redisUrl }, fairShare });
  const addedAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  let stopping = false;
  let noisyRuns = 0;
  worker.process(async (key) => {
    const added = addedAt.get(key);
    if (added !== undefined) {
      addedAt.delete(key);
      if (measuring) latencies.push(performance.now() - added);
    }
    await sleep(WORK_MS);
    if (key.startsWith('noisy/')) {
      if (measuring) noisyRuns++;
      if (!stopping) await worker.add(key); // busy: due again at once, so the backlog never drains
    }
  });
  if (noisy) for (let i = 0; i < NOISY_APPSETS; i++) await producer.add(`noisy/appset-${i}`);
  const quietLoop = (async () => {
    for (let i = 0; !stopping; i++) {
      const key = `quiet/appset-${i % QUIET_APPSETS}`;
      if (!addedAt.has(key)) {
        addedAt.set(key, performance.now());
        await producer.add(key);
      }
      await sleep(QUIET_ADD_EVERY_MS);
    }
  })();
  console.error(`${phase} (round ${round}): ${noisy ? NOISY_APPSETS : 0} noisy keys added; warming up`);
  await sleep(WARMUP_MS);
  measuring = true;
  await sleep(MEASURE_MS);
  measuring = false;
  // Keys still waiting (starved) count with the time they have waited so far: a lower bound.
  for (const added of addedAt.values()) latencies.push(performance.now() - added);
  stopping = true;
  await quietLoop;
  await Promise.all([worker.close(5_000), producer.close(5_000)]);
  console.error(`${phase} (round ${round}): ${latencies.length} samples, ${noisyRuns} noisy runs`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    latencies: sorted,
    phase,
    round,
    samples: sorted.length,
    p50Ms: roundTo(percentile(sorted, 50)),
    p99Ms: roundTo(percentile(sorted, 99)),
    maxMs: roundTo(sorted.at(-1) ?? Number.NaN),
    noisyRunsPerSecond: Math.round(noisyRuns / (MEASURE_MS / 1000)),
  };
}

/** p99 over every sample of `phase`, all rounds pooled. */
function pooledP99(rows: readonly PhaseFigures[], phase: Phase): number {
  return percentile(
    rows
      .filter((r) => r.phase === phase)
      .flatMap((r) => r.latencies)
      .sort((a, b) => a - b),
    99,
  );
}

async function main(): Promise<void> {
  const run = createRunDir();
  const redis = await startRedis(run);
  try {
    const rows: PhaseFigures[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      rows.push(await runPhase(redis.url, 'quiet alone', round));
      rows.push(await runPhase(redis.url, 'noisy, fair share', round));
    }
    rows.push(await runPhase(redis.url, 'noisy, FIFO', 1));
    const table = rows.map(({ latencies: _samples, ...row }) => row);
    console.table(table);
    const baselineP99 = pooledP99(rows, 'quiet alone');
    const paired = rows
      .filter((r) => r.phase === 'noisy, fair share')
      .map((r) => r.p99Ms / (rows.find((b) => b.phase === 'quiet alone' && b.round === r.round)?.p99Ms ?? Number.NaN));
    const ratios = {
      fairShareP99VsQuietBaseline: roundTo(pooledP99(rows, 'noisy, fair share') / baselineP99),
      fairShareP99VsQuietBaselinePairedMedian: roundTo(median(paired)),
      fifoP99VsQuietBaseline: roundTo(pooledP99(rows, 'noisy, FIFO') / baselineP99),
      target: 2,
    };
    const pooled = {
      quietAloneP99Ms: roundTo(baselineP99),
      fairShareP99Ms: roundTo(pooledP99(rows, 'noisy, fair share')),
      fifoP99MsAtLeast: roundTo(pooledP99(rows, 'noisy, FIFO')),
    };
    console.log('quiet tenant add-to-start p99, pooled over rounds (ms):', pooled);
    console.log('ratios to the quiet baseline (target <= 2):', ratios);
    const file = writeBenchResults('fair-share', {
      setup: {
        noisyAppSets: NOISY_APPSETS,
        quietAppSets: QUIET_APPSETS,
        concurrency: CONCURRENCY,
        workMs: WORK_MS,
        quietAddEveryMs: QUIET_ADD_EVERY_MS,
        warmupMs: WARMUP_MS,
        measureMs: MEASURE_MS,
        rounds: ROUNDS,
      },
      results: table,
      pooled,
      ratios,
    });
    console.log(`written to ${file}`);
  } finally {
    await redis.process.stop();
    rmSync(run.root, { recursive: true, force: true });
  }
}

await main();
