// npm run bench:scm — API requests of the pull request and SCM provider generators when 100 ApplicationSets ask
// the same question, per poll interval and per webhook, with and without shared answers and conditional
// requests, side by side in one run. The generators, providers, HTTP client and SCM access are the
// controller's own; the API is a local emulation of GitHub's (ETags, pagination, rate-limit headers) that
// counts every request, and how many of them GitHub would charge to the rate limit (304s are free there).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { V1Secret } from '@kubernetes/client-node';
import { pino } from 'pino';
import { createGeneratorRegistry } from '../src/generators/registry.js';
import type { GeneratorContext } from '../src/generators/generator.js';
import { GitHubAppTokens } from '../src/scm/github-app.js';
import { ConditionalCache } from '../src/scm/http/conditional-cache.js';
import { createScmAccess } from '../src/scm/scm-access.js';
import { SharedAnswers } from '../src/scm/shared-answers.js';
import { platformScmPolicy } from '../src/tenancy/scm-policy.js';
import { writeBenchResults } from './results-file.js';

const APPSETS = 100;
const CONCURRENT_RECONCILES = 10;
const PULLS = 150; // two pages of 100
const REPOS = 120; // two pages of 100; a third of them have deploy/
const REUSE_MS = 30_000;

/** What the emulated API served. */
interface Counts {
  requests: number;
  /** Requests GitHub counts against the rate limit (everything but 304 Not Modified). */
  charged: number;
}

/** A GitHub-shaped API over fixed data, answering `If-None-Match` with 304 when nothing changed. */
function startGithubEmulation(): Promise<{ url: string; counts: Counts; bump: () => void; close: () => Promise<void> }> {
  const counts: Counts = { requests: 0, charged: 0 };
  let generation = 0;
  const json = (req: IncomingMessage, res: ServerResponse, body: unknown, link?: string): void => {
    const text = JSON.stringify(body);
    const etag = `"${createHash('sha1').update(text).digest('hex')}"`;
    counts.requests++;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'x-ratelimit-remaining': '4000' }).end();
      return;
    }
    counts.charged++;
    res.writeHead(200, { 'content-type': 'application/json', etag, 'x-ratelimit-remaining': '4000', ...(link ? { link } : {}) }).end(text);
  };
  const page = <T>(req: IncomingMessage, url: URL, items: T[]): void => {
    const number = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('per_page') ?? '30');
    const next = number * size < items.length ? `<${url.origin}${url.pathname}?page=${number + 1}&per_page=${size}>; rel="next"` : undefined;
    return json(req, responseOf.get(req) as ServerResponse, items.slice((number - 1) * size, number * size), next);
  };
  const responseOf = new WeakMap<IncomingMessage, ServerResponse>();
  const server = createServer((req, res) => {
    responseOf.set(req, res);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const path = url.pathname.replace(/^\/api\/v3/, '');
    let match: RegExpExecArray | null;
    if (/^\/repos\/acme\/shop\/pulls$/.test(path)) return page(req, url, pulls(generation));
    if (/^\/orgs\/acme\/repos$/.test(path)) return page(req, url, repos());
    if ((match = /^\/repos\/acme\/([^/]+)\/branches\/main$/.exec(path)))
      return json(req, res, { name: 'main', commit: { sha: sha(`${match[1]}-${generation}`) } });
    if ((match = /^\/repos\/acme\/svc-(\d+)\/contents\/deploy$/.exec(path))) {
      if (Number(match[1]) % 3 === 0) return json(req, res, [{ name: 'app.yaml', type: 'file' }]);
      counts.requests++;
      counts.charged++;
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    }
    counts.requests++;
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        counts,
        bump: () => void generation++,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

const sha = (seed: string): string => createHash('sha1').update(seed).digest('hex');
const pulls = (generation: number) =>
  Array.from({ length: PULLS }, (_, i) => ({
    number: i + 1,
    title: `change ${i + 1}`,
    head: { ref: `feature-${i + 1}`, sha: sha(`pull-${i + 1}-${i === 0 ? generation : 0}`) },
    base: { ref: 'main' },
    labels: [{ name: 'preview' }],
    user: { login: 'dev' },
  }));
const repos = () =>
  Array.from({ length: REPOS }, (_, i) => ({
    id: i + 1,
    name: `svc-${i}`,
    owner: { login: 'acme' },
    default_branch: 'main',
    ssh_url: `git@github.example:acme/svc-${i}.git`,
    clone_url: `https://github.example/acme/svc-${i}.git`,
    topics: [],
  }));

/** One way of running the generators: shared answers (single flight + reuse) and conditional requests on or off. */
interface Mode {
  readonly name: string;
  readonly sharing: boolean;
  readonly conditional: boolean;
}

const MODES: readonly Mode[] = [
  { name: 'neither (each ApplicationSet asks on its own, as Argo CD does)', sharing: false, conditional: false },
  { name: 'conditional requests only', sharing: false, conditional: true },
  { name: 'shared answers only', sharing: true, conditional: false },
  { name: 'shared answers and conditional requests (this controller)', sharing: true, conditional: true },
];

const token: V1Secret = {
  metadata: { name: 'github-token', labels: { 'argocd.argoproj.io/secret-type': 'scm-creds' } },
  stringData: { token: 'bench-token' },
};

/** Runs `count` reconciles' generators, `CONCURRENT_RECONCILES` at a time, as a replica's workers would. */
async function reconcileAll(count: number, concurrency: number, run: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

interface PhaseFigures {
  requests: number;
  charged: number;
  ms: number;
}

/** The phases for one generator kind in one mode, against a fresh emulation. */
async function runMode(mode: Mode, kind: 'pullRequest' | 'scmProvider'): Promise<Record<string, PhaseFigures>> {
  const api = await startGithubEmulation();
  let clock = 0;
  let epoch = 0;
  const answers = new SharedAnswers(() => Promise.resolve(epoch), { reuseMs: mode.sharing ? REUSE_MS : 0, now: () => clock });
  const access = createScmAccess({
    policy: platformScmPolicy({ enabled: true, allowedApiUrls: [] }),
    secrets: () => [token],
    namespace: 'bench',
    configMapValue: () => Promise.resolve(undefined),
    ...(mode.conditional ? { conditional: new ConditionalCache() } : {}),
    answers,
    githubApps: new GitHubAppTokens(),
  });
  // Without sharing every caller loads for itself (no single flight either).
  const scm = mode.sharing
    ? access
    : { ...access, share: <T>(_q: string, _k: string, load: () => Promise<T>) => load(), remember: <T>(_q: string, load: () => Promise<T>) => load() };
  const registry = createGeneratorRegistry();
  const github = { api: `${api.url}/`, tokenRef: { secretName: 'github-token', key: 'token' } };
  const entry =
    kind === 'pullRequest'
      ? { pullRequest: { github: { owner: 'acme', repo: 'shop', labels: ['preview'], ...github } } }
      : { scmProvider: { github: { organization: 'acme', ...github }, filters: [{ pathsExist: ['deploy'] }] } };
  const ctx: GeneratorContext = {
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    git: undefined as never,
    clusterSecrets: () => [],
    goTemplate: false,
    scm,
    interpolate: (s) => s,
  };
  const phase = async (name: string, figures: Record<string, PhaseFigures>, spread: boolean): Promise<void> => {
    const [requests, charged, started] = [api.counts.requests, api.counts.charged, performance.now()];
    // A spread poll: the ApplicationSets' requeues fall one by one, further apart than the reuse window.
    await reconcileAll(APPSETS, spread ? 1 : CONCURRENT_RECONCILES, async () => {
      if (spread) clock += REUSE_MS + 1;
      await registry.generateEntry(entry, ctx, 'spec.generators[0]');
    });
    figures[name] = { requests: api.counts.requests - requests, charged: api.counts.charged - charged, ms: Math.round(performance.now() - started) };
  };
  const figures: Record<string, PhaseFigures> = {};
  await phase('first listing, 100 ApplicationSets created together', figures, false);
  clock += 30 * 60_000;
  await phase('first listing, 100 ApplicationSets created one by one, further apart than the reuse window', figures, true);
  clock += 30 * 60_000;
  // Their requeues land on the question's slot, wherever each was created (checked in main), so they poll together.
  await phase('next poll interval, unchanged (requeues on the slot)', figures, false);
  api.bump();
  epoch++;
  await phase('one webhook (one change), every ApplicationSet woken', figures, false);
  await api.close();
  return figures;
}

/** The absolute instants the generators' requeues name, asked at 100 different moments: all the same slot. */
async function slotSpreadMs(): Promise<number> {
  const registry = createGeneratorRegistry();
  const entry = { pullRequest: { github: { owner: 'acme', repo: 'shop', api: 'https://github.example/' }, requeueAfterSeconds: 60 } };
  const slots: number[] = [];
  for (let i = 0; i < 100; i++) {
    const asked = Date.now();
    slots.push(asked + (registry.requeueAfterMs(entry, 'spec.generators[0]') ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  return Math.max(...slots) - Math.min(...slots);
}

async function main(): Promise<void> {
  const spread = await slotSpreadMs();
  console.log(`requeues asked at 100 moments over ~0.4 s name slots within ${spread} ms of each other (a 60 s interval)`);
  const results: Record<string, Record<string, Record<string, PhaseFigures>>> = {};
  for (const kind of ['pullRequest', 'scmProvider'] as const) {
    results[kind] = {};
    console.log(
      `\n${kind}: ${APPSETS} ApplicationSets, one question (${kind === 'pullRequest' ? `${PULLS} pull requests` : `${REPOS} repositories, pathsExist`}), ${CONCURRENT_RECONCILES} reconciles at a time`,
    );
    for (const mode of MODES) {
      const figures = await runMode(mode, kind);
      results[kind][mode.name] = figures;
      console.log(`  ${mode.name}`);
      for (const [phase, f] of Object.entries(figures)) console.log(`    ${phase}: ${f.requests} requests, ${f.charged} charged to the rate limit, ${f.ms} ms`);
    }
    const baseline = results[kind][MODES[0]?.name ?? ''] ?? {};
    const ours = results[kind][MODES[3]?.name ?? ''] ?? {};
    for (const phase of Object.keys(ours)) {
      const [theirs, mine] = [baseline[phase], ours[phase]];
      console.log(`  ${phase}: ${theirs?.requests} requests (${theirs?.charged} charged) asking alone -> ${mine?.requests} (${mine?.charged} charged)`);
    }
  }
  const file = writeBenchResults('scm', { appsets: APPSETS, concurrentReconciles: CONCURRENT_RECONCILES, reuseMs: REUSE_MS, slotSpreadMs: spread, results });
  console.log(`\nwrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
