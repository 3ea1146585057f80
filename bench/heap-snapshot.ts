// Reads a V8 heap snapshot (a `.heapsnapshot` file, as `node --heapsnapshot-signal` writes it) into totals:
// the live heap's size, and the self sizes summed by what holds them (constructor name for objects, the
// node type otherwise), largest first. The memory side-by-side (bench/memory-argocd.ts) uses it to say
// where this controller's heap goes.
import { readFileSync } from 'node:fs';

/** The parts of the snapshot format this reader uses. */
interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** The heap of one snapshot: its live size and the largest holders. */
export interface HeapSummary {
  readonly totalMiB: number;
  readonly objects: number;
  /** Self size by holder (`Object`, `(string)`, `(code)`, ...), MiB, the largest first. */
  readonly byHolder: ReadonlyArray<{ readonly holder: string; readonly mib: number; readonly count: number }>;
}

const MIB = 2 ** 20;

/** Sums a snapshot file's nodes; the `top` largest holders are kept (all by default). */
export function summarizeHeapSnapshot(file: string, top = Number.POSITIVE_INFINITY): HeapSummary {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawSnapshot;
  const fields = raw.snapshot.meta.node_fields;
  const types = raw.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const holders = new Map<string, { size: number; count: number }>();
  let total = 0;
  for (let i = 0; i < raw.nodes.length; i += width) {
    const type = types[raw.nodes[i + typeAt] ?? 0] ?? '?';
    const size = raw.nodes[i + sizeAt] ?? 0;
    // Objects by constructor; strings, code, arrays and the rest by their type (their names are contents).
    const holder =
      type === 'object' || type === 'closure' ? `${raw.strings[raw.nodes[i + nameAt] ?? 0] ?? '?'}${type === 'closure' ? ' (closure)' : ''}` : `(${type})`;
    const entry = holders.get(holder) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    holders.set(holder, entry);
    total += size;
  }
  const round = (n: number): number => Math.round((n / MIB) * 10) / 10;
  return {
    totalMiB: round(total),
    objects: raw.nodes.length / width,
    byHolder: [...holders.entries()]
      .sort((a, b) => b[1].size - a[1].size)
      .slice(0, top)
      .map(([holder, { size, count }]) => ({ holder, mib: round(size), count })),
  };
}
