// Recorded Bitbucket Server (Data Center) REST 1.0 answers, trimmed: paged bodies with `isLastPage` and
// `nextPageStart`, and Bitbucket's `{"errors": [{message, exceptionName}]}` error bodies.
import type { RecordedAnswer, Recordings } from '../recorded-api.js';

function repo(id: number, slug: string, name: string): Record<string, unknown> {
  return {
    slug,
    id,
    name,
    hierarchyId: `e3c939f9ef4a7fae272e${id}`,
    scmId: 'git',
    state: 'AVAILABLE',
    statusMessage: 'Available',
    forkable: true,
    project: { key: 'PROJ', id: 1, name: 'Platform', public: false, type: 'NORMAL' },
    public: false,
    links: {
      clone: [
        { href: `ssh://git@bitbucket.example.com:7999/proj/${slug}.git`, name: 'ssh' },
        { href: `https://bitbucket.example.com/scm/proj/${slug}.git`, name: 'http' },
      ],
      self: [{ href: `https://bitbucket.example.com/projects/PROJ/repos/${slug}/browse` }],
    },
  };
}

function branch(displayId: string, latestCommit: string, isDefault: boolean): Record<string, unknown> {
  return { id: `refs/heads/${displayId}`, displayId, type: 'BRANCH', latestCommit, latestChangeset: latestCommit, isDefault };
}

function page(values: unknown[], start: number, next: number | undefined): Record<string, unknown> {
  return { size: values.length, limit: 100, isLastPage: next === undefined, values, start, ...(next === undefined ? {} : { nextPageStart: next }) };
}

function failure(status: number, message: string, exceptionName: string): RecordedAnswer {
  return { status, body: { errors: [{ context: null, message, exceptionName }] } };
}

const REPOS = 'GET /rest/api/1.0/projects/PROJ/repos';
const GUESTBOOK = '/rest/api/1.0/projects/PROJ/repos/guestbook';

/** The project PROJ over three pages, default branches (set, unset, dangling), branches, paths and failures. */
export const BITBUCKET_SERVER_RECORDINGS: Recordings = {
  [`${REPOS}?limit=100`]: { body: page([repo(11, 'guestbook', 'guestbook'), repo(12, 'empty-repo', 'empty-repo')], 0, 2) },
  [`${REPOS}?limit=100&start=2`]: { body: page([repo(13, 'stale-default', 'stale-default')], 2, 3) },
  [`${REPOS}?limit=100&start=3`]: { body: page([repo(14, 'infra', 'infra')], 3, undefined) },
  [`GET ${GUESTBOOK}/branches/default`]: { body: branch('main', '8d51122def5632836d1cb1026e879069e10a1e13', true) },
  // An empty repository with no default branch set answers with nothing at all.
  'GET /rest/api/1.0/projects/PROJ/repos/empty-repo/branches/default': { status: 204 },
  'GET /rest/api/1.0/projects/PROJ/repos/stale-default/branches/default': failure(
    404,
    'Repository stale-default has no branch "refs/heads/main".',
    'com.atlassian.bitbucket.repository.NoSuchBranchException',
  ),
  'GET /rest/api/1.0/projects/PROJ/repos/infra/branches/default': { body: branch('develop', '5f6e7d8c9b0a5f6e7d8c9b0a5f6e7d8c9b0a5f6e', true) },
  [`GET ${GUESTBOOK}/branches?limit=100`]: {
    body: page([branch('main', '8d51122def5632836d1cb1026e879069e10a1e13', true)], 0, 1),
  },
  [`GET ${GUESTBOOK}/branches?limit=100&start=1`]: {
    body: page([branch('feature/login', '0123456789abcdef0123456789abcdef01234567', false)], 1, undefined),
  },
  [`GET ${GUESTBOOK}/browse/apps/guestbook?at=main&limit=100&type=true`]: { body: { type: 'DIRECTORY' } },
  [`GET ${GUESTBOOK}/browse/missing?at=main&limit=100&type=true`]: failure(
    404,
    'The path "missing" does not exist at revision "main"',
    'com.atlassian.bitbucket.content.NoSuchPathException',
  ),
  'GET /rest/api/1.0/projects/LOCKED/repos?limit=100': failure(
    401,
    'Authentication failed. Please check your credentials and try again.',
    'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
  ),
  'GET /rest/api/1.0/projects/PROJ/repos/infra/branches?limit=100': failure(500, 'An internal error occurred', 'java.lang.IllegalStateException'),
};
