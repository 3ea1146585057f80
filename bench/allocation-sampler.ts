import { Session } from 'node:inspector/promises';

/** One node of V8's sampling heap profile: the bytes sampled in a function, and its callees. */
interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}

/**
 * Bytes `work` allocates, estimated by V8's sampling heap profiler with objects the collector already freed
 * counted too (a benchmark's garbage is what it wants to see). `intervalBytes` is the mean gap between samples.
 */
export async function sampledAllocationBytes(work: () => Promise<void> | void, intervalBytes = 1024): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: intervalBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return totalSize(profile.head);
  } finally {
    session.disconnect();
  }
}

function totalSize(node: SampledNode): number {
  let total = node.selfSize;
  for (const child of node.children) total += totalSize(child);
  return total;
}
