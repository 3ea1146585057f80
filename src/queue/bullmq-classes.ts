import { createRequire } from 'node:module';
import type * as BullMq from 'bullmq';

// Why not `import { Queue } from 'bullmq'`: BullMQ's index also loads its PostgreSQL backend and its
// Valkey GLIDE client (1.6 MiB of heap in every replica), neither of which this queue uses. Each class is
// loaded from its own file instead; the version is pinned in package.json, and every queue test fails at
// once if a file moves.
const requireBullMq = createRequire(import.meta.url);

/** BullMQ's Queue class. */
export const Queue = (requireBullMq('bullmq/dist/cjs/classes/queue.js') as Pick<typeof BullMq, 'Queue'>).Queue;
/** A BullMQ queue. */
export type Queue = BullMq.Queue;
/** BullMQ's Worker class. */
export const Worker = (requireBullMq('bullmq/dist/cjs/classes/worker.js') as Pick<typeof BullMq, 'Worker'>).Worker;
/** A BullMQ worker of jobs carrying `Data`. */
export type Worker<Data> = BullMq.Worker<Data>;
/** BullMQ's Job class. */
export const Job = (requireBullMq('bullmq/dist/cjs/classes/job.js') as Pick<typeof BullMq, 'Job'>).Job;
/** A BullMQ job carrying `Data`. */
export type Job<Data> = BullMq.Job<Data>;
