// A queue worker in a process of its own, for the multi-process tests and the benchmark. Spawned as
// `node dist/test/queue/worker-process.js '<json config>'`; appends one line per run start and end to
// the record file, and on SIGTERM closes the queue gracefully (drains) and exits.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { preciseNow, workerKey, type WorkerProcessConfig } from './worker-config.js';

function main(): void {
  const config = JSON.parse(process.argv[2] ?? '{}') as WorkerProcessConfig;
  const keyCount = config.resyncKeyCount;
  const queue = new BullMqWorkQueue({
    name: config.name,
    connection: config.connection ?? { url: config.redisUrl },
    concurrency: config.concurrency,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
    ...(keyCount && config.resyncIntervalMs
      ? { resync: { intervalMs: config.resyncIntervalMs, keys: () => Array.from({ length: keyCount }, (_, i) => workerKey(i)) } }
      : {}),
  });
  const record = (line: string): void => appendFileSync(config.recordFile, `${line}\n`);
  queue.process(async (key) => {
    const start = preciseNow();
    record(`S\t${key}\t${start}\t${process.pid}`);
    const ms = key === config.slowKey ? (config.slowMs ?? 0) : Math.random() * config.maxHandlerMs;
    if (ms > 0) await sleep(ms); // a zero-duration handler must not pay for a timer tick
    record(`E\t${key}\t${start}\t${preciseNow()}\t${process.pid}`);
  });
  process.once('SIGTERM', () => {
    void queue.close(30_000).then(() => process.exit(0));
  });
  record(`R\t${process.pid}`);
}

main();
