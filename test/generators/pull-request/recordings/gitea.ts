// Answers of Gitea's API (`GET /api/v1/repos/{owner}/{repo}/pulls`), as recorded from a Gitea 1.24 server and
// trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a pull request a test varies. */
export interface GiteaPullShape {
  readonly number: number;
  readonly title: string;
  readonly head: string;
  readonly base: string;
  readonly sha: string;
  readonly labels?: readonly string[];
  readonly login: string;
}

/** One entry of the list, shaped as Gitea returns it. */
export function giteaPull(pull: GiteaPullShape): unknown {
  const user = { id: 3, login: pull.login, login_name: '', full_name: '', email: `${pull.login}@noreply.gitea.example`, username: pull.login };
  const repo = { id: 12, name: 'monorepo', full_name: 'platform/monorepo', private: false };
  return {
    id: 4100 + pull.number,
    url: `https://gitea.example/platform/monorepo/pulls/${pull.number}`,
    number: pull.number,
    user,
    title: pull.title,
    body: '',
    labels: (pull.labels ?? []).map((name, i) => ({ id: 30 + i, name, exclusive: false, is_archived: false, color: 'e11d21', description: '', url: '' })),
    milestone: null,
    state: 'open',
    is_locked: false,
    comments: 0,
    html_url: `https://gitea.example/platform/monorepo/pulls/${pull.number}`,
    mergeable: true,
    merged: false,
    base: { label: pull.base, ref: pull.base, sha: '9f2c7a4e0b1d3c5e7f9a1b3c5d7e9f1a3b5c7d9e', repo_id: 12, repo },
    head: { label: pull.head, ref: pull.head, sha: pull.sha, repo_id: 12, repo },
    merge_base: '9f2c7a4e0b1d3c5e7f9a1b3c5d7e9f1a3b5c7d9e',
    created_at: '2025-11-03T10:00:00Z',
    updated_at: '2025-11-04T10:00:00Z',
  };
}

/** Headers of page `page` of `pages` (30 a page): Gitea's Link (built on its ROOT_URL, `origin`) and X-Total-Count. */
export function giteaHeaders(path: string, page: number, pages: number, origin = '$ORIGIN'): Record<string, string> {
  const at = (n: number): string => `<${origin}${path}?limit=30&page=${n}&state=open>`;
  const links = [];
  if (page < pages) links.push(`${at(page + 1)}; rel="next"`, `${at(pages)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`);
  return {
    'x-total-count': String(pages * 30 - 29),
    'access-control-expose-headers': 'X-Total-Count, Link',
    ...(links.length ? { link: links.join(',') } : {}),
  };
}

/** Gitea's 404 for a repository that does not exist or is not visible. */
export const GITEA_NOT_FOUND: RecordedAnswer = { status: 404, body: { errors: null, message: "The target couldn't be found.", url: '$ORIGIN/api/swagger' } };

/** Gitea's 401 for a token it does not accept. */
export const GITEA_UNAUTHORIZED: RecordedAnswer = { status: 401, body: { message: 'invalid username, password or token', url: '$ORIGIN/api/swagger' } };
