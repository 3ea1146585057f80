// Benchmark: the git directories generator on a 10,000-directory, 50,000-file monorepo, through the
// repository cache (bare copy, ls-remote, ls-tree) versus the naive approach (clone with a working
// tree, then walk the file system), first run and steady state side by side in one process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createGeneratorRegistry } from '../src/generators/registry.js';
import type { ParamSet } from '../src/model/params.js';
import type { GeneratorContext } from '../src/generators/generator.js';
import { directoryPathParams, selectPaths, withPathParams } from '../src/generators/path-params.js';
import { folderBytes } from '../src/git/disk-budget.js';
import { RepoCache } from '../src/git/repo-cache.js';
import { BENCH_SHAPE, createMonorepo, shapeCounts } from './git-monorepo.js';
import { noScmAccess } from '../src/scm/no-access.js';
import { writeBenchResults } from './results-file.js';

const FIRST_RUNS = 3;
const STEADY_RUNS = 5;
const PATTERNS = [
  { path: '*/*', exclude: false },
  { path: 'team-000/*', exclude: true },
];
const signal = new AbortController().signal;
const registry = createGeneratorRegistry();

function contextFor(git: RepoCache): GeneratorContext {
  return {
    signal,
    log: pino({ level: 'silent' }),
    git,
    clusterSecrets: () => [],
    goTemplate: true,
    scm: noScmAccess('no SCM providers in this benchmark'),
    interpolate: (s) => s,
  };
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Subject: the git generator through a repository cache in `root`. */
async function subjectRun(cache: RepoCache, url: string): Promise<ParamSet[]> {
  const spec = { git: { repoURL: url, revision: 'main', directories: PATTERNS.map((p) => ({ path: p.path, exclude: p.exclude })) } };
  return registry.generateEntry(spec, contextFor(cache), 'bench');
}

/** Baseline: every directory of a work tree, walking the file system (skipping .git). */
function walkDirectories(root: string, prefix = '', out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    if (!entry.isDirectory() || (prefix === '' && entry.name === '.git')) continue;
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    out.push(rel);
    walkDirectories(root, rel, out);
  }
  return out;
}

function naiveParams(workTree: string): ParamSet[] {
  return selectPaths(walkDirectories(workTree), PATTERNS, true)
    .sort()
    .map((d) => withPathParams(directoryPathParams(d), ''));
}

/** Baseline first run: a full clone with a working tree, then a walk. */
function naiveFirstRun(url: string, into: string): ParamSet[] {
  execFileSync('git', ['clone', '-q', url, into]);
  return naiveParams(into);
}

/** Baseline steady state: fetch and check out again (no revision check), then walk. */
function naiveSteadyRun(workTree: string): ParamSet[] {
  execFileSync('git', ['fetch', '-q', 'origin'], { cwd: workTree });
  execFileSync('git', ['checkout', '-q', '--force', 'origin/main'], { cwd: workTree });
  return naiveParams(workTree);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Timings of both approaches, in milliseconds per run. */
interface Timings {
  subject: number[];
  naive: number[];
}

/** First runs: a new cache and a new clone each time; checks both give the same param sets. */
async function measureFirstRuns(work: string, url: string): Promise<{ times: Timings; cache: RepoCache; tree: string; paramSets: number }> {
  const times: Timings = { subject: [], naive: [] };
  let last: { cache: RepoCache; tree: string; paramSets: number } | undefined;
  for (let i = 0; i < FIRST_RUNS; i++) {
    const cache = new RepoCache({ root: join(work, `cache-${i}`) });
    const s = await timed(() => subjectRun(cache, url));
    const tree = join(work, `clone-${i}`);
    const n = await timed(() => naiveFirstRun(url, tree));
    if (JSON.stringify(s.value) !== JSON.stringify(n.value)) throw new Error('subject and baseline disagree');
    times.subject.push(s.ms);
    times.naive.push(n.ms);
    last = { cache, tree, paramSets: s.value.length };
  }
  if (!last) throw new Error('no first run');
  return { times, ...last };
}

/** Steady state: nothing changed upstream; the same cache and clone run again, interleaved. */
async function measureSteadyState(cache: RepoCache, tree: string, url: string): Promise<{ times: Timings; fetches: number }> {
  const times: Timings = { subject: [], naive: [] };
  const fetchesBefore = cache.stats.fetch;
  for (let i = 0; i < STEADY_RUNS; i++) {
    times.subject.push((await timed(() => subjectRun(cache, url))).ms);
    times.naive.push((await timed(() => naiveSteadyRun(tree))).ms);
  }
  return { times, fetches: cache.stats.fetch - fetchesBefore };
}

function tableRow(phase: string, t: Timings): Record<string, string | number> {
  return {
    phase,
    'cache ms (median)': Math.round(median(t.subject)),
    'naive ms (median)': Math.round(median(t.naive)),
    'naive / cache': Number((median(t.naive) / median(t.subject)).toFixed(1)),
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-git-directories-'));
  try {
    const repoPath = join(work, 'monorepo.git');
    const built = await timed(() => createMonorepo(repoPath, BENCH_SHAPE));
    const url = pathToFileURL(repoPath).href;
    const counts = shapeCounts(BENCH_SHAPE);
    console.log(`monorepo: ${counts.directories} directories, ${counts.files} files, built in ${(built.ms / 1000).toFixed(1)} s`);
    const first = await measureFirstRuns(work, url);
    const steady = await measureSteadyState(first.cache, first.tree, url);
    const disk = { subjectBytes: await folderBytes(join(work, `cache-${FIRST_RUNS - 1}`, 'repos')), naiveBytes: await folderBytes(first.tree) };
    const table = [tableRow('first run (clone)', first.times), tableRow('steady state (unchanged)', steady.times)];
    console.table(table);
    console.log(`param sets per run: ${first.paramSets}; fetches by the cache in ${STEADY_RUNS} steady-state runs: ${steady.fetches}`);
    console.log(`disk: bare copy ${(disk.subjectBytes / 2 ** 20).toFixed(1)} MiB, clone with work tree ${(disk.naiveBytes / 2 ** 20).toFixed(1)} MiB`);
    const file = writeBenchResults('git-directories', {
      shape: { ...BENCH_SHAPE, ...counts },
      paramSetsPerRun: first.paramSets,
      transport: 'file:// (git protocol over a local pipe; no network latency)',
      runs: { first: FIRST_RUNS, steady: STEADY_RUNS },
      firstRunMs: first.times,
      steadyStateMs: steady.times,
      steadyStateFetches: steady.fetches,
      diskBytes: disk,
      table,
      note: 'taken on a shared 2-core machine with other builds running: absolute figures are noisy, ratios were measured side by side',
    });
    console.log(`results: ${file}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
