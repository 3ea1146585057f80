/**
 * `appset diff` benchmark: a monorepo change that touches 1,000 ApplicationSets of 10 Applications each (every
 * ApplicationSet's template moves its targetRevision, and one folder more per 100 teams), timed as
 *   diff:   `appset diff --repo URL=REPO --base base --head head -o json` (the repository scanned for manifests), and
 *   render: `appset render` of the base checkout plus `appset render` of the head checkout, each a process of its own,
 * each wall time from start to exit, runs alternated. Goal: diff ≤ 1.3 × (render base + render head).
 *   node dist/bench/diff.js [--sets N] [--apps N] [--runs N]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const GOAL_RATIO = 1.3;
const REPO_URL = 'https://git.example.test/platform/monorepo.git';
const appset = fileURLToPath(new URL('../../bin/appset.js', import.meta.url));

/** One ApplicationSet: a git directories generator over its team's folders. */
function manifest(team: string, revision: string): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${team}
  namespace: argocd
spec:
  generators:
    - git:
        repoURL: ${REPO_URL}
        revision: HEAD
        directories:
          - path: teams/${team}/*
  template:
    metadata:
      name: '${team}-{{path.basename}}'
      labels: {team: ${team}}
    spec:
      project: default
      source: {repoURL: '${REPO_URL}', targetRevision: ${revision}, path: '{{path}}'}
      destination: {server: https://kubernetes.default.svc, namespace: '${team}-{{path.basename}}'}
`;
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.test', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

/** The monorepo with a `base` and a `head` commit, and a checkout of each for the separate renders. */
function buildMonorepo(sets: number, apps: number): { repo: string; checkouts: { base: string; head: string }; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'bench-diff-'));
  const repo = join(root, 'monorepo');
  mkdirSync(repo);
  git(repo, ['init', '-q', '-b', 'main']);
  const write = (path: string, text: string): void => {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const team = (i: number): string => `team-${String(i).padStart(4, '0')}`;
  for (let i = 0; i < sets; i++) {
    write(`appsets/${team(i)}.yaml`, manifest(team(i), 'main'));
    for (let a = 0; a < apps; a++) write(`teams/${team(i)}/app-${a}/values.yaml`, `replicas: ${a}\n`);
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'base']);
  git(repo, ['tag', 'base']);
  for (let i = 0; i < sets; i++) {
    write(`appsets/${team(i)}.yaml`, manifest(team(i), 'v2'));
    if (i % 100 === 0) write(`teams/${team(i)}/app-new/values.yaml`, 'replicas: 1\n');
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'head']);
  git(repo, ['tag', 'head']);
  const checkout = (rev: string): string => {
    const dir = join(root, rev);
    git(root, ['-c', 'advice.detachedHead=false', 'clone', '-q', '--branch', rev, repo, dir]);
    return dir;
  };
  return { repo, root, checkouts: { base: checkout('base'), head: checkout('head') } };
}

/** Seconds one `appset …args` process takes, start to exit; `okCodes` are the exit codes that mean success. */
function timeOnce(args: readonly string[], okCodes: readonly number[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [appset, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1024 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (!okCodes.includes(result.status ?? -1))
    throw new Error(`appset ${args[0] ?? ''} exited ${String(result.status)}: ${result.stderr.toString().slice(0, 2000)}`);
  return seconds;
}

function main(): void {
  const { values } = parseArgs({
    options: { sets: { type: 'string', default: '1000' }, apps: { type: 'string', default: '10' }, runs: { type: 'string', default: '1' } },
  });
  const [sets, apps, runs] = [Number(values.sets), Number(values.apps), Number(values.runs)];
  const built = performance.now();
  const { repo, root, checkouts } = buildMonorepo(sets, apps);
  console.error(`bench:diff: monorepo of ${sets} ApplicationSets × ${apps} folders built in ${roundTo((performance.now() - built) / 1000, 1)} s`);
  const files = (dir: string): string[] => Array.from({ length: sets }, (_, i) => join(dir, 'appsets', `team-${String(i).padStart(4, '0')}.yaml`));
  const render = (dir: string): number => timeOnce(['render', '-o', 'json', '--repo', `${REPO_URL}=${dir}`, ...files(dir)], [0]);
  const samples = { diff: [] as number[], renderBase: [] as number[], renderHead: [] as number[] };
  try {
    for (let run = 0; run < runs; run++) {
      samples.diff.push(timeOnce(['diff', '-o', 'json', '--repo', `${REPO_URL}=${repo}`, '--base', 'base', '--head', 'head'], [1]));
      samples.renderBase.push(render(checkouts.base));
      samples.renderHead.push(render(checkouts.head));
      console.error(
        `bench:diff: run ${run + 1}: diff ${roundTo(samples.diff[run] ?? 0, 2)} s, render base ${roundTo(samples.renderBase[run] ?? 0, 2)} s, head ${roundTo(samples.renderHead[run] ?? 0, 2)} s`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const diffSeconds = median(samples.diff);
  const renderBoth = median(samples.renderBase) + median(samples.renderHead);
  const ratio = diffSeconds / renderBoth;
  const figures = {
    applicationSets: sets,
    applicationsPerSet: apps,
    runs,
    diffSeconds: roundTo(diffSeconds, 2),
    renderBaseSeconds: roundTo(median(samples.renderBase), 2),
    renderHeadSeconds: roundTo(median(samples.renderHead), 2),
    renderBothSeconds: roundTo(renderBoth, 2),
    ratio: roundTo(ratio, 2),
    goalRatio: GOAL_RATIO,
    goalMet: ratio <= GOAL_RATIO,
    samples: {
      diff: samples.diff.map((s) => roundTo(s, 2)),
      renderBase: samples.renderBase.map((s) => roundTo(s, 2)),
      renderHead: samples.renderHead.map((s) => roundTo(s, 2)),
    },
  };
  console.log(JSON.stringify(figures, null, 2));
  console.error(`bench:diff: results in ${writeBenchResults('diff', figures)}`);
  if (!figures.goalMet) process.exitCode = 1;
}

main();
