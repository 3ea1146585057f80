// Answers of GitLab's REST API (`GET /api/v4/projects/:id/merge_requests`), as recorded from gitlab.com and
// trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a merge request a test varies. */
export interface GitlabMergeRequestShape {
  readonly iid: number;
  readonly title: string;
  readonly source: string;
  readonly target: string;
  readonly sha: string;
  readonly labels?: readonly string[];
  readonly username: string;
}

/** One entry of the list, shaped as GitLab returns it. */
export function gitlabMergeRequest(mr: GitlabMergeRequestShape): unknown {
  const author = { id: 4088036, username: mr.username, name: 'Dev Eloper', state: 'active', web_url: `https://gitlab.com/${mr.username}` };
  return {
    id: 35385000 + mr.iid,
    iid: mr.iid,
    project_id: 278964,
    title: mr.title,
    description: '',
    state: 'opened',
    created_at: '2025-11-03T10:58:54.413Z',
    updated_at: '2025-11-04T12:01:49.849Z',
    target_branch: mr.target,
    source_branch: mr.source,
    author,
    assignees: [author],
    source_project_id: 278964,
    target_project_id: 278964,
    labels: mr.labels ?? [],
    draft: false,
    merge_when_pipeline_succeeds: false,
    detailed_merge_status: 'mergeable',
    sha: mr.sha,
    merge_commit_sha: null,
    web_url: `https://gitlab.com/platform/team/monorepo/-/merge_requests/${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `platform/team/monorepo!${mr.iid}` },
  };
}

/** Headers of page `page` of `pages`: GitLab's pagination headers (X-Next-Page empty on the last page), rate limits, ETag. */
export function gitlabHeaders(page: number, pages: number, link?: string): Record<string, string> {
  return {
    etag: 'W/"7c5e8d1f0a2b3c4d5e6f708192a3b4c5"',
    'x-page': String(page),
    'x-per-page': '100',
    'x-next-page': page < pages ? String(page + 1) : '',
    'x-prev-page': page > 1 ? String(page - 1) : '',
    'x-total': String(pages * 2),
    'x-total-pages': String(pages),
    'ratelimit-limit': '2000',
    'ratelimit-remaining': '1998',
    'ratelimit-reset': '1762269600',
    ...(link ? { link } : {}),
  };
}

/** GitLab's 404 for a project that does not exist or is not visible. */
export const GITLAB_NOT_FOUND: RecordedAnswer = { status: 404, body: { message: '404 Project Not Found' } };

/** GitLab's 401 for a token it does not accept. */
export const GITLAB_UNAUTHORIZED: RecordedAnswer = { status: 401, body: { message: '401 Unauthorized' } };
