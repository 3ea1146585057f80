/**
 * The render memo's phase of bench:render: an ApplicationSet of 10,000 parameter sets in which one parameter
 * set changed, rendered with the replica's memo (only the changed one renders) against rendering every
 * parameter set again (the baseline, same engine, same run, alternating); and the heap the memo holds for
 * those 10,000 renders (live heap after a full collection, with and without the memo's entries).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ParamSet } from '../src/model/params.js';
import type { ApplicationSetForRender } from '../src/model/applicationset-types.js';
import { TemplateEngine } from '../src/templating/engine.js';
import { renderApplicationSet } from '../src/templating/render-applicationset.js';
import { RenderMemo } from '../src/templating/render-memo.js';

const ROUNDS = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A full collection, then the live heap in bytes (the gc function is reached without --expose-gc on the command line). */
function liveHeap(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Milliseconds of one render of `params` with `memo` (undefined: every parameter set renders). */
function timeRender(set: ApplicationSetForRender, params: ParamSet[], engine: TemplateEngine, memo: RenderMemo | undefined): number {
  const started = performance.now();
  const apps = renderApplicationSet(set, [{ generatorIndex: 0, params }], { engine, ...(memo ? { memo } : {}) });
  const ms = performance.now() - started;
  if (apps.length !== params.length) throw new Error('benchmark rendered the wrong number of Applications');
  return ms;
}

/** Runs the phase for both styles, adds its figures and returns the printed table. */
export function memoPhase(params: ParamSet[], applicationSet: (go: boolean) => ApplicationSetForRender, figures: Record<string, unknown>): string[] {
  const rows = [
    `\nOne parameter set of ${params.length} changed: the render memo against rendering all again, median of ${ROUNDS} rounds; heap the memo holds`,
    '| style        | speed-up | memo ms | render-all ms | memo heap MiB | KiB per render |',
    '|--------------|----------|---------|---------------|---------------|----------------|',
  ];
  for (const go of [false, true]) {
    const style = go ? 'goTemplate' : 'fasttemplate';
    const set = applicationSet(go);
    const engine = new TemplateEngine();
    timeRender(set, params, engine, undefined);
    const heapBefore = liveHeap();
    // Room for the changed renders too, so the one that changed back in the next round is still remembered.
    const memo = new RenderMemo(2 * params.length);
    timeRender(set, params, engine, memo);
    const heapBytes = liveHeap() - heapBefore;
    const withMemo: number[] = [];
    const without: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A new value in one parameter set each round: one render, and one entry replaced in the memo.
      const changed = params.map((p, i) => (i === round * 997 ? { ...p, name: `changed-${round}` } : p));
      without.push(timeRender(set, changed, engine, undefined));
      withMemo.push(timeRender(set, changed, engine, memo));
    }
    if (memo.stats.misses !== params.length + ROUNDS) throw new Error(`the memo rendered ${memo.stats.misses} times, expected ${params.length + ROUNDS}`);
    const speedUp = median(without) / median(withMemo);
    figures[`memo-one-changed-${style}`] = {
      applications: params.length,
      memoMs: Math.round(median(withMemo) * 10) / 10,
      renderAllMs: Math.round(median(without) * 10) / 10,
      speedUp: Math.round(speedUp * 10) / 10,
      memoHeapMiB: Math.round((heapBytes / 2 ** 20) * 10) / 10,
      heapKiBPerRender: Math.round((heapBytes / 1024 / params.length) * 100) / 100,
    };
    rows.push(
      `| ${style.padEnd(12)} | ${speedUp.toFixed(1).padStart(7)}x | ${median(withMemo).toFixed(1).padStart(7)} | ${median(without).toFixed(1).padStart(13)} | ${(heapBytes / 2 ** 20).toFixed(1).padStart(13)} | ${(heapBytes / 1024 / params.length).toFixed(2).padStart(14)} |`,
    );
  }
  return rows;
}
