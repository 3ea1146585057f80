/**
 * Watch stream benchmark: streamWatch reading 10,000 Application events (as the API server writes them,
 * managedFields included) handed to it in chunks of about 16 KiB, several chunks at a time as when the
 * replica's main thread was busy, side by side with the floor: JSON.parse of the same lines
 * already split. A third subject is streamWatch as informers that drop managedFields run it: with the member cut
 * out of each line before parsing (session 38). Figures: CPU time and bytes allocated per event, and their
 * ratios to the floor.
 * Run: npm run bench:watch-stream (node dist/bench/watch-stream.js). Results: bench/results/watch-stream.json.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { streamWatch, type OpenWatch } from '../src/kube/informer/watch-stream.js';
import { sampledAllocationBytes } from './allocation-sampler.js';
import { applicationEventLine as eventLine } from './application-event.js';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const EVENTS = 10_000;
const ROUNDS = 11;
const CHUNK_BYTES = 16_384;

/** The stream's bytes cut into chunks of about CHUNK_BYTES (varied, so lines are split at every place). */
function chunksOf(text: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = CHUNK_BYTES + (i % 7) * 1000;
    chunks.push(text.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/**
 * Reads every event through streamWatch, the chunks handed to its sink as the stream connections hand them (one
 * read buffer, reused); they arrive one to six at a time, a turn of the event loop apart.
 */
async function readThroughStream(chunks: readonly Buffer[], withoutManagedFields: boolean): Promise<void> {
  let events = 0;
  const readBuffer = Buffer.allocUnsafe(64 * 1024);
  const open: OpenWatch = async (_signal, sink) => {
    sink.onResponse?.();
    for (let i = 0; i < chunks.length;) {
      for (let batch = 1 + (i % 6); batch > 0 && i < chunks.length; batch--, i++) {
        const chunk = chunks[i] as Buffer;
        chunk.copy(readBuffer);
        sink.onBody(readBuffer.subarray(0, chunk.length));
      }
      await nextTurn();
    }
  };
  await streamWatch(open, () => void events++, { signal: new AbortController().signal, silenceMs: 60_000, withoutManagedFields });
  if (events !== EVENTS) throw new Error(`streamWatch gave ${events} events, not ${EVENTS}`);
}

/** The floor: parsing the lines, already split, with nothing else. */
async function parseOnly(lines: readonly string[]): Promise<void> {
  let events = 0;
  for (const line of lines) if (JSON.parse(line) !== null) events++;
  await nextTurn();
  if (events !== EVENTS) throw new Error(`parsed ${events} lines`);
}

/** CPU milliseconds `work` takes. */
async function cpuMs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const lines = Array.from({ length: EVENTS }, (_, i) => eventLine(i));
  const chunks = chunksOf(Buffer.from(lines.map((line) => `${line}\n`).join('')));
  const stream = (): Promise<void> => readThroughStream(chunks, false);
  const cutStream = (): Promise<void> => readThroughStream(chunks, true);
  const floor = (): Promise<void> => parseOnly(lines);
  await stream(); // warm all three before measuring
  await cutStream();
  await floor();
  const streamed: number[] = [];
  const cutStreamed: number[] = [];
  const parsed: number[] = [];
  const ratios: number[] = [];
  const cutRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate which goes first, so a drift within a round touches all alike.
    const subjects = [stream, cutStream, floor];
    const took = new Map<() => Promise<void>, number>();
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(round + i) % subjects.length] as () => Promise<void>;
      took.set(subject, await cpuMs(subject));
    }
    const [ours, cut, baseline] = [took.get(stream), took.get(cutStream), took.get(floor)] as [number, number, number];
    streamed.push(ours);
    cutStreamed.push(cut);
    parsed.push(baseline);
    ratios.push(ours / baseline);
    cutRatios.push(cut / baseline);
  }
  const bytesPerEvent = async (work: () => Promise<void>): Promise<number> => Math.round((await sampledAllocationBytes(work)) / EVENTS);
  const figures = {
    events: EVENTS,
    bytesPerLine: Math.round(chunks.reduce((sum, chunk) => sum + chunk.length, 0) / EVENTS),
    rounds: ROUNDS,
    cpuMsPer10k: { streamWatch: roundTo(median(streamed)), streamWatchWithoutManagedFields: roundTo(median(cutStreamed)), parseOnly: roundTo(median(parsed)) },
    pairedCpuRatio: roundTo(median(ratios)),
    pairedCpuRatioWithoutManagedFields: roundTo(median(cutRatios)),
    bytesAllocatedPerEvent: {
      streamWatch: await bytesPerEvent(stream),
      streamWatchWithoutManagedFields: await bytesPerEvent(cutStream),
      parseOnly: await bytesPerEvent(floor),
    },
  };
  process.stdout.write(
    `streamWatch over ${EVENTS} Application events (${figures.bytesPerLine} bytes each), median of ${ROUNDS} rotated rounds:\n` +
      `  streamWatch                      ${figures.cpuMsPer10k.streamWatch} CPU-ms, ${figures.bytesAllocatedPerEvent.streamWatch} bytes allocated per event\n` +
      `  streamWatch, managedFields cut   ${figures.cpuMsPer10k.streamWatchWithoutManagedFields} CPU-ms, ${figures.bytesAllocatedPerEvent.streamWatchWithoutManagedFields} bytes allocated per event\n` +
      `  JSON.parse alone                 ${figures.cpuMsPer10k.parseOnly} CPU-ms, ${figures.bytesAllocatedPerEvent.parseOnly} bytes allocated per event\n` +
      `  paired CPU ratio to JSON.parse   ${figures.pairedCpuRatio} (managedFields cut: ${figures.pairedCpuRatioWithoutManagedFields})\n`,
  );
  process.stderr.write(`results written to ${writeBenchResults('watch-stream', figures)}\n`);
}

await main();
