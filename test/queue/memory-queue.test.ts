import { MemoryWorkQueue } from '../../src/queue/memory-queue.js';
import { describeWorkQueueConformance } from './conformance.js';

describeWorkQueueConformance('memory', (options) => new MemoryWorkQueue(options));
