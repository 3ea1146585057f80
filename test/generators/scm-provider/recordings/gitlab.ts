// Recorded GitLab REST API v4 answers, trimmed, with GitLab's paging and rate-limit headers and its
// error bodies (`{"message": "404 … Not Found"}`).
import type { RecordedAnswer, Recordings } from '../recorded-api.js';

const RATE = { 'ratelimit-limit': '2000', 'ratelimit-remaining': '1996', 'ratelimit-reset': '1767225600', 'ratelimit-observed': '4' };
// GitLab also sends Link; it points at gitlab.example.com here, which a provider paging by number never follows.
const LINK = '<https://gitlab.example.com/api/v4/groups/platform%2Fargocd/projects?page=2&per_page=100>; rel="next"';

function paging(page: number, next: string, totalPages = '2'): Record<string, string> {
  return { ...RATE, 'x-page': String(page), 'x-next-page': next, 'x-per-page': '100', 'x-total': '3', 'x-total-pages': totalPages, link: LINK };
}

function project(id: number, path: string, namespace: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    description: '',
    name: path,
    name_with_namespace: `${namespace.replaceAll('/', ' / ')} / ${path}`,
    path,
    path_with_namespace: `${namespace}/${path}`,
    default_branch: 'main',
    ssh_url_to_repo: `git@gitlab.example.com:${namespace}/${path}.git`,
    http_url_to_repo: `https://gitlab.example.com/${namespace}/${path}.git`,
    web_url: `https://gitlab.example.com/${namespace}/${path}`,
    namespace: { id: 12258515, name: namespace, path: namespace.split('/').at(-1), kind: 'group', full_path: namespace, parent_id: null },
    archived: false,
    empty_repo: false,
    visibility: 'private',
    ...extra,
  };
}

function branch(name: string, id: string): Record<string, unknown> {
  return {
    name,
    commit: { id, short_id: id.slice(0, 8), title: 'Merge branch', committed_date: '2025-06-04T08:24:44.000+00:00' },
    merged: false,
    protected: name === 'main',
    default: name === 'main',
  };
}

const notFound = (what: string): RecordedAnswer => ({ status: 404, headers: RATE, body: { message: `404 ${what} Not Found` } });

const FIRST_PAGE = 'GET /api/v4/groups/platform%2Fargocd/projects?include_subgroups=true&per_page=100&topic=deploy&with_shared=true';

/** The group `platform/argocd` with a subgroup, over two pages, its branches, files and failures. */
export const GITLAB_RECORDINGS: Recordings = {
  [FIRST_PAGE]: {
    headers: { ...paging(1, '2'), etag: 'W/"3f6c"' },
    body: [
      project(27084533, 'guestbook', 'platform/argocd', { topics: ['deploy', 'demo'], tag_list: ['deploy', 'demo'] }),
      project(27084534, 'legacy-app', 'platform/argocd', { topics: [], tag_list: ['deploy'] }),
    ],
  },
  [`${FIRST_PAGE}&page=2`]: {
    headers: paging(2, ''),
    body: [project(27084538, 'tools', 'platform/argocd/ops', { topics: ['deploy'], archived: true, default_branch: 'trunk' })],
  },
  'GET /api/v4/groups/platform%2Fargocd/projects?include_subgroups=false&per_page=100&topic=&with_shared=true': {
    headers: paging(1, '', '1'),
    body: [project(27084533, 'guestbook', 'platform/argocd', { topics: ['deploy', 'demo'] })],
  },
  'GET /api/v4/groups/4217/projects?include_subgroups=false&per_page=100&topic=&with_shared=false': {
    // Over 10,000 projects GitLab leaves out X-Total and X-Total-Pages; X-Next-Page still leads on.
    headers: { ...RATE, 'x-page': '1', 'x-next-page': '2', 'x-per-page': '100' },
    body: [project(1, 'one', 'big', {})],
  },
  'GET /api/v4/groups/4217/projects?include_subgroups=false&page=2&per_page=100&topic=&with_shared=false': {
    headers: { ...RATE, 'x-page': '2', 'x-next-page': '', 'x-per-page': '100' },
    body: [project(2, 'two', 'big', {})],
  },
  'GET /api/v4/projects/27084533/repository/branches/main': { headers: RATE, body: branch('main', '8898d7999fc99dd0fd578650b58b244fc63f6b53') },
  'GET /api/v4/projects/27084533/repository/branches/release%2F2.x': { headers: RATE, body: branch('release/2.x', '2222222222222222222222222222222222222222') },
  'GET /api/v4/projects/27084599/repository/branches/main': notFound('Branch'),
  'GET /api/v4/projects/27084533/repository/branches?per_page=100': {
    headers: paging(1, '2'),
    body: [branch('main', '8898d7999fc99dd0fd578650b58b244fc63f6b53')],
  },
  'GET /api/v4/projects/27084533/repository/branches?page=2&per_page=100': {
    headers: paging(2, ''),
    body: [branch('pipeline-1310077506', '0f92540e5f396ba960adea4ed0aa905baf3f73d1')],
  },
  'GET /api/v4/projects/27084599/repository/branches?per_page=100': notFound('Project'),
  'GET /api/v4/projects/platform%2Fargocd%2Fguestbook': { headers: RATE, body: project(27084533, 'guestbook', 'platform/argocd', {}) },
  'GET /api/v4/projects/27084533/repository/files/manifests%2Fkustomization%2Eyaml?ref=main': {
    headers: RATE,
    body: {
      file_name: 'kustomization.yaml',
      file_path: 'manifests/kustomization.yaml',
      size: 98,
      encoding: 'base64',
      ref: 'main',
      blob_id: 'e69de29b',
      content: '',
    },
  },
  'GET /api/v4/projects/27084533/repository/files/manifests?ref=main': notFound('File'),
  'GET /api/v4/projects/27084533/repository/tree?path=manifests&ref=main': {
    headers: RATE,
    body: [{ id: 'ca14f2a3', name: 'kustomization.yaml', type: 'blob', path: 'manifests/kustomization.yaml', mode: '100644' }],
  },
  'GET /api/v4/projects/27084533/repository/files/helm?ref=main': notFound('File'),
  'GET /api/v4/projects/27084533/repository/tree?path=helm&ref=main': notFound('Tree'),
  'GET /api/v4/groups/secret-group/projects?include_subgroups=false&per_page=100&topic=&with_shared=true': {
    status: 401,
    body: { message: '401 Unauthorized' },
  },
  'GET /api/v4/projects/27084534/repository/branches/main': { status: 500, headers: RATE, body: { message: '500 Internal Server Error' } },
};
