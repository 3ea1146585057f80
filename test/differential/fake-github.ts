// A GitHub Enterprise REST API (the /api/v3 paths go-github uses with an `api` URL) holding one organisation,
// `example`, for the differential cases of the pullRequest and scmProvider generators: both renderers ask it
// the same questions. Queries are ignored (each list fits on one page), unknown paths answer GitHub's 404.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { githubPull } from '../generators/pull-request/recordings/github.js';

/** Where corpus files name the API; the harness puts the server's origin in its place. */
export const SCM_API_PLACEHOLDER = 'http://scm-api.differential.test';

const SHA = (n: number): string => n.toString(16).padStart(2, '0').repeat(20);

const PULLS = [
  { number: 12, title: 'Add billing preview', head: 'feature/billing', base: 'main', sha: SHA(1), labels: ['preview'], login: 'alice' },
  { number: 15, title: 'Fix: guestbook probes', head: 'fix/guestbook-probes', base: 'main', sha: SHA(2), labels: ['preview', 'bug'], login: 'bob' },
  { number: 21, title: 'Release 2.0', head: 'release/2.0', base: 'release', sha: SHA(3), labels: [], login: 'carol' },
];

interface FakeRepo {
  name: string;
  defaultBranch: string;
  topics: string[];
  branches: Record<string, string>;
  paths: string[];
  archived?: boolean;
}

const REPOS: FakeRepo[] = [
  {
    name: 'billing',
    defaultBranch: 'main',
    topics: ['team-a', 'api'],
    branches: { main: SHA(4), 'release/1.x': SHA(5) },
    paths: ['deploy', 'deploy/kustomization.yaml'],
  },
  { name: 'guestbook', defaultBranch: 'master', topics: ['team-b'], branches: { master: SHA(6) }, paths: ['chart', 'chart/Chart.yaml'] },
  { name: 'old-tool', defaultBranch: 'main', topics: [], branches: { main: SHA(7) }, paths: [], archived: true },
];

function repoJson(origin: string, repo: FakeRepo, id: number): unknown {
  return {
    id,
    name: repo.name,
    full_name: `example/${repo.name}`,
    private: false,
    owner: { login: 'example', id: 1000, type: 'Organization' },
    html_url: `https://github.example.com/example/${repo.name}`,
    url: `${origin}/api/v3/repos/example/${repo.name}`,
    ssh_url: `git@github.example.com:example/${repo.name}.git`,
    clone_url: `https://github.example.com/example/${repo.name}.git`,
    default_branch: repo.defaultBranch,
    topics: repo.topics,
    archived: repo.archived ?? false,
  };
}

const branchJson = (name: string, sha: string): unknown => ({ name, commit: { sha, url: `https://github.example.com/commits/${sha}` }, protected: false });

/** The answer to one path of the API, or undefined for GitHub's 404. */
function answer(origin: string, path: string): unknown {
  if (path === '/api/v3/repos/example/monorepo/pulls') return PULLS.map(githubPull);
  if (path === '/api/v3/orgs/example/repos') return REPOS.map((repo, i) => repoJson(origin, repo, 500 + i));
  const match = /^\/api\/v3\/repos\/example\/([^/]+)\/(branches|contents)(?:\/(.*))?$/.exec(path);
  const repo = REPOS.find((r) => r.name === match?.[1]);
  if (!match || !repo) return undefined;
  const rest = decodeURIComponent(match[3] ?? '');
  if (match[2] === 'branches' && rest === '') return Object.entries(repo.branches).map(([name, sha]) => branchJson(name, sha));
  if (match[2] === 'branches') return repo.branches[rest] === undefined ? undefined : branchJson(rest, repo.branches[rest]);
  return repo.paths.includes(rest.replace(/\/$/, '')) ? { type: 'file', name: rest.split('/').at(-1), path: rest, sha: SHA(9), size: 10 } : undefined;
}

/** Starts the API on a free loopback port; returns its origin and a stop function. */
export async function startFakeGithub(): Promise<{ origin: string; close: () => Promise<void> }> {
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = answer(origin, path);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
