import { readFileSync } from 'node:fs';

/** One run a worker process recorded; `end` is missing when the process died during it. */
export interface ProcessRun {
  key: string;
  start: number;
  end?: number;
  pid: number;
}

/** Reads the runs recorded in `file` (start lines matched to end lines by key, start and pid). */
export function readRuns(file: string): ProcessRun[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const runs = new Map<string, ProcessRun>();
  for (const line of text.split('\n')) {
    const [kind, key = '', start = '', ...rest] = line.split('\t');
    if (kind !== 'S' && kind !== 'E') continue;
    const id = `${key}\t${start}\t${rest.at(-1)}`;
    const run = runs.get(id) ?? { key, start: Number(start), pid: Number(rest.at(-1)) };
    if (kind === 'E') run.end = Number(rest[0]);
    runs.set(id, run);
  }
  return [...runs.values()];
}

/** Pids of worker processes that have written their ready line. */
export function readyPids(file: string): number[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('R\t'))
      .map((line) => Number(line.split('\t')[1]));
  } catch {
    return [];
  }
}

/** Groups runs by key, each group sorted by start. */
export function runsByKey(runs: ProcessRun[]): Map<string, ProcessRun[]> {
  const byKey = new Map<string, ProcessRun[]>();
  for (const run of runs) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  for (const list of byKey.values()) list.sort((a, b) => a.start - b.start);
  return byKey;
}

/** Describes every pair of runs of one key that overlap in time (a run without end overlaps all later ones). */
export function findOverlaps(runs: ProcessRun[]): string[] {
  const overlaps: string[] = [];
  for (const [key, list] of runsByKey(runs)) {
    for (let i = 1; i < list.length; i++) {
      const previous = list[i - 1];
      const current = list[i];
      if (previous && current && (previous.end === undefined || current.start < previous.end)) {
        overlaps.push(`${key}: run on pid ${current.pid} at ${current.start} started before the run on pid ${previous.pid} ended (${previous.end ?? 'never'})`);
      }
    }
  }
  return overlaps;
}

/** Keys whose last add (a `preciseNow` time) has no run that started after it. */
export function keysMissingRunAfter(lastAdds: Map<string, number>, runs: ProcessRun[]): string[] {
  const latestStart = new Map<string, number>();
  for (const run of runs) latestStart.set(run.key, Math.max(latestStart.get(run.key) ?? -Infinity, run.start));
  return [...lastAdds].filter(([key, added]) => (latestStart.get(key) ?? -Infinity) <= added).map(([key]) => key);
}
