import type { Redis } from 'ioredis';
import { Job, type Queue } from './bullmq-classes.js';
import { encodeKey } from './keys.js';

/** The job name of every queue job; the key travels in the job data. */
export const JOB_NAME = 'key';

/** Data of a queue job: the key and when it became due (epoch ms), for the latency metric. */
export interface KeyJobData {
  key: string;
  dueAt: number;
}

/**
 * Options of every add. `keepLastIfActive` keeps one follow-up run of a key that is running
 * (guarantee 3) and never a second concurrent job; `replace` swaps a pending *delayed* job, which is
 * what lets an immediate add overtake a delayed add or a backoff (guarantee 4). `priority` is the
 * tenant's fair-share priority (TenantLoad in tenant-load.ts).
 */
export function jobOptions(key: string, delayMs: number, priority: number): Parameters<Queue['add']>[2] {
  return {
    delay: delayMs,
    // Every job has a priority (>= 1): BullMQ takes unprioritised jobs first, which would bypass fairness.
    priority,
    removeOnComplete: true,
    removeOnFail: true,
    attempts: 1,
    deduplication: { id: encodeKey(key), replace: true, keepLastIfActive: true },
  };
}

/** BullMQ stores a delayed job with score = due time · 0x1000 + a counter. */
const DELAYED_SCORE_FACTOR = 0x1000;
const MAX_ATTEMPTS = 50;

type Decision = 'add' | 'skip';

/**
 * Adds `key` to run after `delayMs` unless something already pending for it is due as soon or sooner.
 * BullMQ's `replace` would let a later delay replace an earlier one, and its keep-last follow-up is
 * overwritten by every add during a run; so the pending state is read under WATCH and the add is sent
 * in MULTI: when another add changes that key's pending state meanwhile, EXEC aborts and we decide
 * again. `queue` must have a connection of its own, used by one caller at a time (WATCH is
 * per connection and any EXEC on it clears every watch).
 */
export async function addDelayedEarliestWins(queue: Queue, data: KeyJobData, delayMs: number, priority: number): Promise<void> {
  const client = await rawClient(queue);
  const id = encodeKey(data.key);
  const keys = { dedup: `${queueKey(queue, 'de')}:${id}`, next: `${queueKey(queue, '')}dn:${id}` };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await client.watch(keys.dedup, keys.next);
    const decision = await decide(queue, keys, data.dueAt);
    if (decision === 'skip') {
      await client.unwatch();
      return;
    }
    const multi = client.multi();
    const job = new Job(queue, JOB_NAME, data, jobOptions(data.key, delayMs, priority));
    await job.addJob(multi as never);
    const replies = await multi.exec();
    if (replies === null) continue; // the pending state changed under us: decide again
    const failure = replies.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
    return;
  }
  throw new Error(`delayed add of ${JSON.stringify(data.key)} kept racing with other adds; gave up after ${MAX_ATTEMPTS} attempts`);
}

/** Reads what is pending for the key and says whether an add due at `dueAt` would bring it forward. */
async function decide(queue: Queue, keys: { dedup: string; next: string }, dueAt: number): Promise<Decision> {
  const client = await rawClient(queue);
  const jobId = await client.get(keys.dedup);
  if (jobId === null) return 'add';
  const replies = await client
    .pipeline()
    .zscore(queueKey(queue, 'delayed'), jobId)
    .lpos(queueKey(queue, 'active'), jobId)
    .hget(keys.next, 'opts')
    .exists(`${queueKey(queue, '')}${jobId}`)
    .exec();
  if (!replies) throw new Error('redis pipeline returned nothing');
  const [score, activeAt, nextOpts, exists] = replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
  if (score !== null && score !== undefined) return Math.floor(Number(score) / DELAYED_SCORE_FACTOR) <= dueAt ? 'skip' : 'add';
  if (activeAt !== null && activeAt !== undefined) {
    if (typeof nextOpts !== 'string') return 'add';
    // The follow-up's delay counts from the end of the run, like ours would: compare delays.
    const pendingDelay = Number((JSON.parse(nextOpts) as { delay?: number }).delay ?? 0);
    return pendingDelay <= dueAt - Date.now() ? 'skip' : 'add';
  }
  // Waiting (runs as soon as a worker is free) unless the job is gone, which BullMQ's add recovers.
  return exists === 1 ? 'skip' : 'add';
}

/** The queue's own connection: BullMQ's proxy over the ioredis client, which forwards ioredis calls. */
async function rawClient(queue: Queue): Promise<Redis> {
  return (await queue.backend.client) as unknown as Redis;
}

/** One of BullMQ's Redis key names for this queue ('' is the job-key prefix). */
export function queueKey(queue: Queue, name: string): string {
  const key = queue.keys[name];
  if (key === undefined) throw new Error(`bullmq has no "${name}" key for queue ${queue.name}; this bullmq version is not supported`);
  return key;
}
