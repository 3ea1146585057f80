import type { ProcessRun } from '../queue/worker-records.js';

/**
 * The queue runs a replica logged at trace level ('key run started' / 'key run ended', by job id), as
 * {@link ProcessRun}s for findOverlaps: a run whose end is missing was cut off by the process's death.
 */
export function queueRunsOf(lines: ReadonlyArray<Record<string, unknown>>): ProcessRun[] {
  const open = new Map<string, ProcessRun>();
  const runs: ProcessRun[] = [];
  for (const line of lines) {
    const msg = line['msg'];
    if (msg !== 'key run started' && msg !== 'key run ended') continue;
    const pid = Number(line['pid']);
    const id = `${pid}/${String(line['jobId'])}/${String(line['key'])}`;
    if (msg === 'key run started') {
      const run: ProcessRun = { key: String(line['key']), start: Number(line['time']), pid };
      open.set(id, run);
      runs.push(run);
    } else {
      const run = open.get(id);
      if (run) run.end = Number(line['time']);
      open.delete(id);
    }
  }
  return runs;
}
