// Benchmark: what a webhook push costs the Git cache when it wakes many ApplicationSets of one
// repository (20 here, to keep the one-by-one baseline short on a shared machine). Subject: the
// resolutions run at once, as the queue's workers run them, and share ls-remotes (`SharedRemoteRefs`).
// Baseline: the same resolutions one after another, which is what the cache did before (each ran its
// own ls-remote under the per-repository lock). Both over the test environment's smart-HTTP Git
// server with basic auth, modes alternating, one fresh push per burst.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Secret } from '@kubernetes/client-node';
import { RepoCache } from '../src/git/repo-cache.js';
import { GitFixtures } from '../src/environment/local/git-fixtures.js';
import { startGitHttpServer } from '../src/environment/local/git-http-server.js';
import { writeBenchResults } from './results-file.js';

const WOKEN = 20;
const ROUNDS = 2;
const signal = new AbortController().signal;

interface Burst {
  ms: number;
  lsRemote: number;
  fetch: number;
}

/** Resolves the pushed revision and lists it for every woken ApplicationSet, `together` or one by one. */
async function burst(cache: RepoCache, url: string, together: boolean): Promise<Burst> {
  const before = { ...cache.stats };
  const one = async (): Promise<void> => {
    const commit = await cache.resolveRevision(url, 'HEAD', signal);
    await cache.listDirectories(url, commit, signal);
  };
  const start = performance.now();
  if (together) await Promise.all(Array.from({ length: WOKEN }, one));
  else for (let i = 0; i < WOKEN; i++) await one();
  return { ms: performance.now() - start, lsRemote: cache.stats.lsRemote - before.lsRemote, fetch: cache.stats.fetch - before.fetch };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-webhook-burst-'));
  const credentials = { username: 'bench', password: 'bench-password' };
  const server = await startGitHttpServer(join(root, 'served'), credentials);
  try {
    const fixtures = new GitFixtures(join(root, 'served'), server.baseUrl);
    const repo = await fixtures.createRepo('monorepo', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`apps/a${i}/app.yaml`, `n: ${i}\n`])));
    const secret: V1Secret = {
      metadata: { name: 'creds', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
      data: Object.fromEntries(Object.entries({ url: repo.httpUrl, ...credentials }).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    };
    const cacheIn = (name: string): RepoCache => new RepoCache({ root: join(root, name), repositorySecrets: () => [secret] });
    const caches = { shared: cacheIn('shared'), sequential: cacheIn('sequential') };
    for (const cache of Object.values(caches)) await cache.resolveRevision(repo.httpUrl, 'HEAD', signal); // first clone, not measured
    const results: Record<'shared' | 'sequential', Burst[]> = { shared: [], sequential: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['shared', 'sequential'] as const) : (['sequential', 'shared'] as const);
      for (const mode of order) {
        await repo.commit({ [`apps/a${round}/app.yaml`]: `n: ${mode}-${round}\n` }, `push ${round} ${mode}`);
        const result = await burst(caches[mode], repo.httpUrl, mode === 'shared');
        results[mode].push(result);
        console.log(`round ${round + 1} ${mode}: ${Math.round(result.ms)} ms, ${result.lsRemote} ls-remote, ${result.fetch} fetch`);
      }
    }
    const row = (mode: 'shared' | 'sequential'): Record<string, number> => ({
      'median ms': Math.round(median(results[mode].map((b) => b.ms))),
      'ls-remote per push': median(results[mode].map((b) => b.lsRemote)),
      'fetch per push': median(results[mode].map((b) => b.fetch)),
    });
    const table = { 'shared ls-remote (subject)': row('shared'), 'one by one (baseline)': row('sequential') };
    const ratio = median(results.sequential.map((b) => b.ms)) / median(results.shared.map((b) => b.ms));
    console.log(`${WOKEN} ApplicationSets of one repository woken by a push, ${ROUNDS} pushes each`);
    console.table(table);
    console.log(`headline: a push's Git work is ${ratio.toFixed(1)}x faster with shared ls-remotes (median wall time, baseline / subject)`);
    const file = writeBenchResults('webhook-burst', { woken: WOKEN, rounds: ROUNDS, ratio, table, bursts: results });
    console.log(`results: ${file}`);
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
