import { randomBytes } from 'node:crypto';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import { describeWorkQueueConformance } from './conformance.js';

// Each test gets a queue name of its own on the shared Redis, so tests and runs never see each other's keys.
describeWorkQueueConformance('bullmq', (options) =>
  new BullMqWorkQueue({ ...options, name: `conformance-${randomBytes(6).toString('hex')}`, connection: { url: sharedEnvironment().redisUrl } }),
);
