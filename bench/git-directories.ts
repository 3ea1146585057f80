// Benchmark: the git directories generator on a 10,000-directory, 50,000-file monorepo, through the
// repository cache (bare copy, ls-remote, ls-tree) versus the naive approach (clone with a working
// tree, then walk the file system), first run and steady state side by side in one process. The steady
// state on an unchanged commit runs three ways, interleaved with the naive one: without the generator's
// memo (the listing from memory, selected again), with it and an ls-remote per run, and with it and refs
// within --git-refs-max-age (the controller's default), which must fetch, list and read nothing.
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
import { RepoCache, type RepoCacheStats } from '../src/git/repo-cache.js';
import { GitResultMemo } from '../src/generators/git-memo.js';
import { createLocalPushEpochs } from '../src/git/push-epochs.js';
import { BENCH_SHAPE, createMonorepo, shapeCounts } from './git-monorepo.js';
import { noScmAccess } from '../src/scm/no-access.js';
import { writeBenchResults } from './results-file.js';

const FIRST_RUNS = 3;
const STEADY_RUNS = 9;
/** The controller's default `--git-refs-max-age`. */
const REFS_MAX_AGE_MS = 30_000;
const PATTERNS = [
  { path: '*/*', exclude: false },
  { path: 'team-000/*', exclude: true },
];
const signal = new AbortController().signal;

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

/** The generator as a replica runs it: one repository cache and one registry (with its memo). */
interface Subject {
  readonly cache: RepoCache;
  readonly memo: GitResultMemo;
  readonly registry: ReturnType<typeof createGeneratorRegistry>;
}

function subjectOf(cache: RepoCache, memo = new GitResultMemo()): Subject {
  return { cache, memo, registry: createGeneratorRegistry({ gitMemo: memo }) };
}

/** Subject: the git generator through a repository cache in `root`. */
async function subjectRun(subject: Subject, url: string): Promise<ParamSet[]> {
  const spec = { git: { repoURL: url, revision: 'main', directories: PATTERNS.map((p) => ({ path: p.path, exclude: p.exclude })) } };
  return subject.registry.generateEntry(spec, contextFor(subject.cache), 'bench');
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

/** First runs: a new cache, memo and clone each time; checks both give the same param sets. */
async function measureFirstRuns(work: string, url: string): Promise<{ times: Timings; subject: Subject; tree: string; paramSets: number }> {
  const times: Timings = { subject: [], naive: [] };
  let last: { subject: Subject; tree: string; paramSets: number } | undefined;
  for (let i = 0; i < FIRST_RUNS; i++) {
    const subject = subjectOf(new RepoCache({ root: join(work, `cache-${i}`) }));
    const s = await timed(() => subjectRun(subject, url));
    const tree = join(work, `clone-${i}`);
    const n = await timed(() => naiveFirstRun(url, tree));
    if (JSON.stringify(s.value) !== JSON.stringify(n.value)) throw new Error('subject and baseline disagree');
    times.subject.push(s.ms);
    times.naive.push(n.ms);
    last = { subject, tree, paramSets: s.value.length };
  }
  if (!last) throw new Error('no first run');
  return { times, ...last };
}

/** What one way of running the subject did with Git over the steady-state runs. */
interface GitWork {
  lsRemote: number;
  fetch: number;
  lsTree: number;
  blobReads: number;
  memoHits: number;
}

function gitWork(before: RepoCacheStats, memoHitsBefore: number, subject: Subject): GitWork {
  const now = subject.cache.stats;
  return {
    lsRemote: now.lsRemote - before.lsRemote,
    fetch: now.fetch - before.fetch,
    lsTree: now.lsTree - before.lsTree,
    blobReads: now.blobReads - before.blobReads,
    memoHits: subject.memo.stats.hits - memoHitsBefore,
  };
}

/** The three ways of the steady state, by name (see the header). */
type SteadyWay = 'no memo' | 'memo, ls-remote each run' | 'memo, refs within max age';

/**
 * Steady state: nothing changed upstream; the same caches and clone run again, interleaved, each way
 * checked against the naive result. The ways share the first run's bare copy; the two other than the
 * first run's own cache are new caches on it (as restarted replicas), each warmed by one untimed run.
 */
async function measureSteadyState(first: { subject: Subject; tree: string }, url: string, root: string) {
  const naive: number[] = [];
  const ways: Record<SteadyWay, Subject> = {
    'no memo': subjectOf(new RepoCache({ root }), new GitResultMemo({ maxWeight: 0, maxEntries: 0 })),
    'memo, ls-remote each run': first.subject,
    'memo, refs within max age': subjectOf(new RepoCache({ root, refsMaxAgeMs: REFS_MAX_AGE_MS, pushEpochs: createLocalPushEpochs() })),
  };
  await subjectRun(ways['no memo'], url);
  await subjectRun(ways['memo, refs within max age'], url);
  const times = Object.fromEntries(Object.keys(ways).map((way) => [way, [] as number[]])) as Record<SteadyWay, number[]>;
  const work = {} as Record<SteadyWay, GitWork>;
  const starts = Object.fromEntries(Object.entries(ways).map(([way, subject]) => [way, { stats: { ...subject.cache.stats }, hits: subject.memo.stats.hits }]));
  for (let i = 0; i < STEADY_RUNS; i++) {
    const baseline = await timed(() => naiveSteadyRun(first.tree));
    const expected = JSON.stringify(baseline.value);
    naive.push(baseline.ms);
    for (const [way, subject] of Object.entries(ways) as Array<[SteadyWay, Subject]>) {
      const run = await timed(() => subjectRun(subject, url));
      if (JSON.stringify(run.value) !== expected) throw new Error(`${way} disagrees with the baseline`);
      times[way].push(run.ms);
    }
  }
  for (const [way, subject] of Object.entries(ways) as Array<[SteadyWay, Subject]>) {
    const start = starts[way] as { stats: RepoCacheStats; hits: number };
    work[way] = gitWork(start.stats, start.hits, subject);
  }
  return { naive, times, work };
}

function tableRow(phase: string, subject: number[], naive: number[], cloneAndWalk: number[]): Record<string, string | number> {
  const ms = median(subject);
  return {
    phase,
    'cache ms (median)': ms < 10 ? Number(ms.toFixed(2)) : Math.round(ms),
    'naive ms (median)': Math.round(median(naive)),
    'naive / cache': Number((median(naive) / ms).toFixed(1)),
    'clone-and-walk / cache': Number((median(cloneAndWalk) / ms).toFixed(1)),
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
    const steady = await measureSteadyState(first, url, join(work, `cache-${FIRST_RUNS - 1}`));
    const disk = { subjectBytes: await folderBytes(join(work, `cache-${FIRST_RUNS - 1}`, 'repos')), naiveBytes: await folderBytes(first.tree) };
    const clone = first.times.naive;
    const table = [
      tableRow('first run (clone)', first.times.subject, clone, clone),
      ...Object.entries(steady.times).map(([way, times]) => tableRow(`unchanged commit: ${way}`, times, steady.naive, clone)),
    ];
    console.table(table);
    console.log(`param sets per run: ${first.paramSets}; Git work in ${STEADY_RUNS} unchanged-commit runs of each way :`);
    console.table(steady.work);
    console.log(`disk: bare copy ${(disk.subjectBytes / 2 ** 20).toFixed(1)} MiB, clone with work tree ${(disk.naiveBytes / 2 ** 20).toFixed(1)} MiB`);
    const file = writeBenchResults('git-directories', {
      shape: { ...BENCH_SHAPE, ...counts },
      paramSetsPerRun: first.paramSets,
      transport: 'file:// (git protocol over a local pipe; no network latency)',
      runs: { first: FIRST_RUNS, steady: STEADY_RUNS },
      refsMaxAgeMs: REFS_MAX_AGE_MS,
      firstRunMs: first.times,
      unchangedCommitMs: { naive: steady.naive, ...steady.times },
      unchangedCommitGitWork: steady.work,
      diskBytes: disk,
      table,
      note: 'taken on a shared 2-core machine with other builds running: absolute figures are noisy, ratios were measured side by side; the naive steady state is fetch + checkout + walk, clone-and-walk is the naive first run',
    });
    console.log(`results: ${file}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
