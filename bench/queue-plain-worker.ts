// A plain BullMQ worker in a process of its own: the baseline of bench:queue. Same config, same record
// file lines and same SIGTERM drain as test/queue/worker-process.ts, with a bare BullMQ Worker instead of
// the work queue (no AbortSignal bookkeeping, no backoff reset, no follow-up runs).
import { appendFileSync } from 'node:fs';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { preciseNow, type WorkerProcessConfig } from '../test/queue/worker-config.js';

function main(): void {
  const config = JSON.parse(process.argv[2] ?? '{}') as WorkerProcessConfig;
  const record = (line: string): void => appendFileSync(config.recordFile, `${line}\n`);
  const worker = new Worker(
    config.name,
    (job: Job<{ key: string }>) => {
      const start = preciseNow();
      record(`S\t${job.data.key}\t${start}\t${process.pid}`);
      record(`E\t${job.data.key}\t${start}\t${preciseNow()}\t${process.pid}`);
      return Promise.resolve();
    },
    { connection: new Redis(config.redisUrl, { maxRetriesPerRequest: null }), concurrency: config.concurrency },
  );
  process.once('SIGTERM', () => {
    void worker.close().then(() => process.exit(0));
  });
  void worker.waitUntilReady().then(() => record(`R\t${process.pid}`));
}

main();
