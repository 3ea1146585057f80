// Answers of Bitbucket Cloud's API (`GET /2.0/repositories/{workspace}/{repo}/pullrequests`), as recorded from
// api.bitbucket.org and trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a pull request a test varies. */
export interface BitbucketCloudPullShape {
  readonly id: number;
  readonly title: string;
  readonly source: string;
  readonly destination: string;
  /** Bitbucket lists pull requests with 12-character commit hashes. */
  readonly hash: string;
  readonly nickname: string;
}

function side(branch: string, hash: string): unknown {
  return {
    branch: { name: branch },
    commit: { type: 'commit', hash, links: { self: { href: `https://api.bitbucket.org/2.0/repositories/platform/monorepo/commit/${hash}` } } },
    repository: { type: 'repository', full_name: 'platform/monorepo', name: 'monorepo', uuid: '{b6c1f9a0-3c1e-4a8e-9b7d-2f1e0c9d8a7b}' },
  };
}

/** One entry of `values`, shaped as Bitbucket Cloud returns it. */
export function bitbucketCloudPull(pull: BitbucketCloudPullShape): unknown {
  return {
    type: 'pullrequest',
    id: pull.id,
    title: pull.title,
    description: '',
    state: 'OPEN',
    author: {
      display_name: 'Dev Eloper',
      type: 'user',
      uuid: '{4d0e9c8b-7a6f-4e5d-8c3b-2a1f0e9d8c7b}',
      account_id: '557058:1f2e3d4c',
      nickname: pull.nickname,
    },
    source: side(pull.source, pull.hash),
    destination: side(pull.destination, '0a1b2c3d4e5f'),
    merge_commit: null,
    comment_count: 0,
    task_count: 0,
    close_source_branch: true,
    created_on: '2025-11-03T10:00:00.000000+00:00',
    updated_on: '2025-11-04T10:00:00.000000+00:00',
    links: { html: { href: `https://bitbucket.org/platform/monorepo/pull-requests/${pull.id}` } },
  };
}

/** A page of Bitbucket's paged answers: `next` (an absolute URL) until the last page. */
export function bitbucketCloudPage(values: readonly unknown[], page: number, size: number, next?: string): unknown {
  return { values, pagelen: 10, size, page, ...(next ? { next } : {}) };
}

/** Bitbucket Cloud's 404 for a repository that does not exist. */
export const BITBUCKET_CLOUD_NOT_FOUND: RecordedAnswer = { status: 404, body: { type: 'error', error: { message: 'Repository platform/monorepo not found' } } };

/** Bitbucket Cloud's 401 for credentials it does not accept. */
export const BITBUCKET_CLOUD_UNAUTHORIZED: RecordedAnswer = {
  status: 401,
  body: { type: 'error', error: { message: 'Token is invalid, expired, or not supported for this endpoint.' } },
};
