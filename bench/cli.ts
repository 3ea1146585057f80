/**
 * CLI start-up benchmark: wall time of `appset --help` and of `appset render` on one small ApplicationSet
 * (a list generator, three Applications), this checkout against a baseline commit (default: the one
 * before the CLI loaded its heavy modules lazily), run alternately in one process with the same Node.
 *   node dist/bench/cli.js [--baseline REV] [--runs N]
 * The baseline is checked out into a temporary folder, installed from its own lock file (npm's cache
 * serves it) and compiled once; the folder is kept per revision for the next run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

/** The commit before this benchmark's change: the CLI imported every command's modules up front. */
const DEFAULT_BASELINE = 'c1c847a';
const GOALS_SECONDS = { help: 0.25, render: 0.5 } as const;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const SMALL_APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: small
  namespace: argocd
spec:
  generators:
    - list:
        elements:
          - cluster: dev
          - cluster: staging
          - cluster: prod
  template:
    metadata:
      name: 'guestbook-{{cluster}}'
    spec:
      project: default
      source: {repoURL: 'https://git.example.test/apps.git', targetRevision: HEAD, path: guestbook}
      destination: {server: https://kubernetes.default.svc, namespace: 'guestbook-{{cluster}}'}
`;

/** A checkout of `rev` with its own dependencies, compiled; reused when a complete one exists. */
function baselineCheckout(rev: string): string {
  const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--verify', `${rev}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `appset-bench-cli-${commit.slice(0, 12)}`);
  const marker = join(dir, 'dist', 'src', 'cli', 'main.js');
  if (existsSync(marker)) return dir;
  console.error(`bench:cli: preparing the baseline ${commit.slice(0, 12)} in ${dir} (npm ci from the cache, tsc)`);
  execFileSync('bash', ['-c', `rm -rf "$1" && mkdir -p "$1" && git -C "$2" archive "$3" | tar -x -C "$1"`, '_', dir, repoRoot, commit], { stdio: 'inherit' });
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, stdio: 'inherit' });
  return dir;
}

/** Seconds one run of `node <root>/bin/appset.js ...args` takes, start to exit; fails on a non-zero exit. */
function timeOnce(root: string, args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [join(root, 'bin', 'appset.js'), ...args], { cwd: root, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`appset ${args.join(' ')} in ${root} exited ${result.status}: ${result.stderr}`);
  return seconds;
}

interface Figures {
  median: number;
  min: number;
  max: number;
}

const summary = (samples: readonly number[]): Figures => ({
  median: roundTo(median(samples), 3),
  min: roundTo(Math.min(...samples), 3),
  max: roundTo(Math.max(...samples), 3),
});

function main(): void {
  const { values } = parseArgs({ options: { baseline: { type: 'string', default: DEFAULT_BASELINE }, runs: { type: 'string', default: '15' } } });
  const runs = Number(values.runs);
  const baseline = baselineCheckout(values.baseline);
  const appsetFile = join(mkdtempSync(join(tmpdir(), 'bench-cli-')), 'small.yaml');
  writeFileSync(appsetFile, SMALL_APPSET);
  const commands = { help: ['--help'], render: ['render', appsetFile] } as const;
  const samples = { help: { current: [] as number[], baseline: [] as number[] }, render: { current: [] as number[], baseline: [] as number[] } };
  // One warm-up each fills the file cache; then the two checkouts alternate, in a rotated order per round.
  for (const args of Object.values(commands)) for (const root of [repoRoot, baseline]) timeOnce(root, args);
  for (let round = 0; round < runs; round++) {
    for (const [name, args] of Object.entries(commands) as Array<[keyof typeof commands, readonly string[]]>) {
      const order = round % 2 === 0 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
      for (const which of order) samples[name][which].push(timeOnce(which === 'current' ? repoRoot : baseline, args));
    }
  }
  const figures = Object.fromEntries(
    (Object.keys(commands) as Array<keyof typeof commands>).map((name) => {
      const current = summary(samples[name].current);
      const base = summary(samples[name].baseline);
      return [
        name,
        {
          command: `appset ${commands[name].join(' ').replace(appsetFile, 'small.yaml')}`,
          current,
          baseline: base,
          ratio: roundTo(current.median / base.median, 2),
          goalSeconds: GOALS_SECONDS[name],
          meetsGoal: current.median <= GOALS_SECONDS[name],
        },
      ];
    }),
  );
  console.log(`appset CLI wall time, median of ${runs} runs each (node ${process.version}; baseline ${values.baseline})`);
  console.log('command                     current s (min..max)    baseline s (min..max)   ratio  goal');
  for (const row of Object.values(figures)) {
    const cell = (f: Figures): string => `${f.median.toFixed(3)} (${f.min.toFixed(3)}..${f.max.toFixed(3)})`.padEnd(24);
    console.log(
      `${row.command.padEnd(28)}${cell(row.current)}${cell(row.baseline)}${row.ratio.toFixed(2).padEnd(7)}${row.meetsGoal ? 'met' : 'missed'} (<= ${row.goalSeconds} s)`,
    );
  }
  console.log(`wrote ${writeBenchResults('cli', { runs, baseline: values.baseline, figures })}`);
}

main();
