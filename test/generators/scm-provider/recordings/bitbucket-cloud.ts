// Recorded Bitbucket Cloud API 2.0 answers (served under /2.0), trimmed: paged bodies with a `next` URL,
// and Bitbucket's `{"type": "error", "error": {"message": …}}` error bodies.
import { ORIGIN, type RecordedAnswer, type Recordings } from '../recorded-api.js';

const SHA = '2a1c7f9e3b5d4c6a8e0f1b2c3d4e5f6a7b8c9d0e';

function repo(slug: string, uuid: string, mainbranch: string | null): Record<string, unknown> {
  return {
    type: 'repository',
    full_name: `argoproj-ws/${slug}`,
    links: {
      self: { href: `https://api.bitbucket.org/2.0/repositories/argoproj-ws/${slug}` },
      html: { href: `https://bitbucket.org/argoproj-ws/${slug}` },
      clone: [
        { name: 'https', href: `https://argocd-bot@bitbucket.org/argoproj-ws/${slug}.git` },
        { name: 'ssh', href: `git@bitbucket.org:argoproj-ws/${slug}.git` },
      ],
    },
    name: slug.replace(/-/g, ' '),
    slug,
    is_private: true,
    uuid,
    mainbranch: mainbranch === null ? null : { name: mainbranch, type: 'branch' },
    workspace: { type: 'workspace', slug: 'argoproj-ws', uuid: '{b7c2a8d4-0c1e-4f3a-9d5b-6e7f8a9b0c1d}' },
    project: { type: 'project', key: 'PLAT', name: 'Platform' },
    scm: 'git',
  };
}

function branch(name: string, hash: string): Record<string, unknown> {
  return { name, target: { type: 'commit', hash, date: '2025-05-01T10:00:00+00:00', message: 'Update\n' }, type: 'branch', links: {} };
}

function failure(status: number, message: string): RecordedAnswer {
  return { status, body: { type: 'error', error: { message } } };
}

const BRANCHES = '/2.0/repositories/argoproj-ws/guestbook/refs/branches';

/** The workspace `argoproj-ws` over two pages, its branches, paths and failures. */
export const BITBUCKET_CLOUD_RECORDINGS: Recordings = {
  'GET /2.0/repositories/argoproj-ws?role=member': {
    body: {
      pagelen: 10,
      size: 3,
      page: 1,
      values: [repo('guestbook', '{0e3c5a9b-1111-4a2b-8c3d-4e5f6a7b8c9d}', 'main'), repo('helm-charts', '{0e3c5a9b-2222-4a2b-8c3d-4e5f6a7b8c9d}', 'develop')],
      next: `${ORIGIN}/2.0/repositories/argoproj-ws?role=member&page=2`,
    },
  },
  'GET /2.0/repositories/argoproj-ws?role=member&page=2': {
    body: {
      pagelen: 10,
      size: 3,
      page: 2,
      values: [repo('empty', '{0e3c5a9b-3333-4a2b-8c3d-4e5f6a7b8c9d}', null)],
      previous: `${ORIGIN}/2.0/repositories/argoproj-ws?role=member&page=1`,
    },
  },
  [`GET ${BRANCHES}/main`]: { body: branch('main', SHA) },
  [`GET ${BRANCHES}/release/1.x`]: { body: branch('release/1.x', '3333333333333333333333333333333333333333') },
  [`GET ${BRANCHES}/gone`]: failure(404, 'Branch not found'),
  [`GET ${BRANCHES}`]: {
    body: { pagelen: 2, values: [branch('main', SHA), branch('develop', 'dddddddddddddddddddddddddddddddddddddddd')], next: `${ORIGIN}${BRANCHES}?page=2` },
  },
  [`GET ${BRANCHES}?page=2`]: { body: { pagelen: 2, page: 2, values: [branch('feature/x', 'ffffffffffffffffffffffffffffffffffffffff')] } },
  [`GET /2.0/repositories/argoproj-ws/guestbook/src/${SHA}/apps?format=meta`]: {
    body: { path: 'apps', type: 'commit_directory', commit: { type: 'commit', hash: SHA }, links: {} },
  },
  [`GET /2.0/repositories/argoproj-ws/guestbook/src/${SHA}/apps/values.yaml?format=meta`]: {
    body: { path: 'apps/values.yaml', type: 'commit_file', size: 51, mimetype: null, commit: { type: 'commit', hash: SHA } },
  },
  [`GET /2.0/repositories/argoproj-ws/guestbook/src/${SHA}/nope?format=meta`]: failure(404, 'No such file or directory: nope'),
  'GET /2.0/repositories/locked-ws?role=member': failure(401, 'Access denied. You must have write or admin access.'),
  'GET /2.0/repositories/argoproj-ws/helm-charts/refs/branches/develop': failure(500, 'Something went wrong'),
  'GET /2.0/repositories/moved-ws?role=member': {
    body: { values: [repo('lonely', '{0}', 'main')], next: 'https://api.bitbucket.org/2.0/repositories/moved-ws?role=member&page=2' },
  },
};

/** The commit the recorded `main` branch of guestbook points at. */
export const GUESTBOOK_MAIN_SHA = SHA;
