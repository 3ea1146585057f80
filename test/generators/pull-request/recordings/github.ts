// Answers of GitHub's REST API (`GET /repos/{owner}/{repo}/pulls`), as recorded from api.github.com and
// trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a pull request a test varies. */
export interface GithubPullShape {
  readonly number: number;
  readonly title: string;
  readonly head: string;
  readonly base: string;
  readonly sha: string;
  readonly labels?: readonly string[];
  readonly login: string;
}

/** One entry of the list, shaped as GitHub returns it. */
export function githubPull(pull: GithubPullShape): unknown {
  const repo = { id: 70107786, node_id: 'MDEwOlJlcG9zaXRvcnk3MDEwNzc4Ng==', name: 'monorepo', full_name: 'platform/monorepo', private: false };
  const user = { login: pull.login, id: 583231, node_id: 'MDQ6VXNlcjU4MzIzMQ==', type: 'User', site_admin: false };
  return {
    url: `https://api.github.com/repos/platform/monorepo/pulls/${pull.number}`,
    id: 1934000000 + pull.number,
    node_id: 'PR_kwDOBC3Cis5zRsDe',
    html_url: `https://github.com/platform/monorepo/pull/${pull.number}`,
    number: pull.number,
    state: 'open',
    locked: false,
    title: pull.title,
    user,
    body: 'Preview environment please.',
    created_at: '2025-11-03T09:12:44Z',
    updated_at: '2025-11-04T16:01:02Z',
    labels: (pull.labels ?? []).map((name, i) => ({
      id: 5200000000 + i,
      node_id: 'LA_kwDOBC3Cis8AAAABNfR1kA',
      url: `https://api.github.com/repos/platform/monorepo/labels/${encodeURIComponent(name)}`,
      name,
      color: 'ededed',
      default: false,
      description: null,
    })),
    draft: false,
    head: { label: `${pull.login}:${pull.head}`, ref: pull.head, sha: pull.sha, user, repo },
    base: { label: `platform:${pull.base}`, ref: pull.base, sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e', user, repo },
    author_association: 'MEMBER',
    auto_merge: null,
  };
}

/** Headers of a successful page: rate-limit counters with room to spare, an ETag, and the Link header when given. */
export function githubHeaders(link?: string): Record<string, string> {
  return {
    etag: 'W/"4f1c0e5a1b2d3c4e5f60718293a4b5c6"',
    'x-github-api-version-selected': '2022-11-28',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4987',
    'x-ratelimit-reset': '1762269600',
    'x-ratelimit-used': '13',
    'x-ratelimit-resource': 'core',
    ...(link ? { link } : {}),
  };
}

/** A Link header as GitHub writes it for page `page` of `last` (`$ORIGIN` for the server's origin). */
export function githubLink(path: string, page: number, last: number, origin = '$ORIGIN'): string {
  const at = (n: number): string => `<${origin}${path}?per_page=100&page=${n}>`;
  const parts = [];
  if (page > 1) parts.push(`${at(page - 1)}; rel="prev"`);
  if (page < last) parts.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) parts.push(`${at(1)}; rel="first"`);
  return parts.join(', ');
}

/** GitHub's 404 for a repository that does not exist or is not visible. */
export const GITHUB_NOT_FOUND: RecordedAnswer = {
  status: 404,
  body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests', status: '404' },
};

/** GitHub's 401 for a token it does not accept. */
export const GITHUB_BAD_CREDENTIALS: RecordedAnswer = {
  status: 401,
  body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
};
