// Answers of Bitbucket Server / Data Center's REST API (`GET /rest/api/1.0/projects/{key}/repos/{slug}/pull-requests`),
// as recorded from a Bitbucket Data Center 8.19 server and trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a pull request a test varies. */
export interface BitbucketServerPullShape {
  readonly id: number;
  readonly title: string;
  readonly from: string;
  readonly to: string;
  readonly latestCommit: string;
  readonly user: string;
}

function ref(branch: string, latestCommit: string): unknown {
  const repository = { slug: 'monorepo', id: 11, name: 'monorepo', project: { key: 'PLAT', id: 3, name: 'Platform', type: 'NORMAL' } };
  return { id: `refs/heads/${branch}`, displayId: branch, latestCommit, type: 'BRANCH', repository };
}

/** One entry of `values`, shaped as Bitbucket Server returns it. */
export function bitbucketServerPull(pull: BitbucketServerPullShape): unknown {
  return {
    id: pull.id,
    version: 2,
    title: pull.title,
    description: 'Preview me',
    state: 'OPEN',
    open: true,
    closed: false,
    draft: false,
    createdDate: 1762160000000,
    updatedDate: 1762246400000,
    fromRef: ref(pull.from, pull.latestCommit),
    toRef: ref(pull.to, '5b766e3564a3453808f3cd3dd3f2e5fad8ef0e7a'),
    locked: false,
    author: {
      user: {
        name: pull.user,
        emailAddress: `${pull.user}@example.com`,
        active: true,
        displayName: pull.user.toUpperCase(),
        id: 57,
        slug: pull.user,
        type: 'NORMAL',
      },
      role: 'AUTHOR',
      approved: false,
      status: 'UNAPPROVED',
    },
    reviewers: [],
    participants: [],
    links: { self: [{ href: `https://bitbucket.example/projects/PLAT/repos/monorepo/pull-requests/${pull.id}` }] },
  };
}

/** A page of the paged API: `isLastPage`, and `nextPageStart` while it is false. */
export function bitbucketServerPage(values: readonly unknown[], start: number, nextPageStart?: number): unknown {
  return {
    size: values.length,
    limit: 100,
    isLastPage: nextPageStart === undefined,
    values,
    start,
    ...(nextPageStart === undefined ? {} : { nextPageStart }),
  };
}

/** Bitbucket Server's 404 for a repository that does not exist. */
export const BITBUCKET_SERVER_NOT_FOUND: RecordedAnswer = {
  status: 404,
  body: {
    errors: [
      { context: null, message: 'Repository PLAT/monorepo does not exist.', exceptionName: 'com.atlassian.bitbucket.repository.NoSuchRepositoryException' },
    ],
  },
};

/** Bitbucket Server's 401 for credentials it does not accept. */
export const BITBUCKET_SERVER_UNAUTHORIZED: RecordedAnswer = {
  status: 401,
  body: {
    errors: [
      {
        context: null,
        message: 'Authentication failed. Please check your credentials and try again.',
        exceptionName: 'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
      },
    ],
  },
};
