// Recorded GitHub REST API answers (GitHub Enterprise paths, /api/v3), trimmed to the fields that matter
// plus a few of their neighbours, with GitHub's real headers and error bodies.
import { ORIGIN, type RecordedAnswer, type Recordings } from '../recorded-api.js';

const RATE = { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4987', 'x-ratelimit-reset': '1767225600', 'x-ratelimit-resource': 'core' };
const ORG_PAGES = `${ORIGIN}/api/v3/organizations/33170279/repos?per_page=100`;
const BRANCH_PAGES = `${ORIGIN}/api/v3/repositories/301270000/branches?per_page=100`;

function repo(id: number, name: string, defaultBranch: string, topics: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    node_id: `R_kgDO${id}`,
    name,
    full_name: `argoproj-labs/${name}`,
    private: false,
    owner: { login: 'argoproj-labs', id: 33170279, type: 'Organization', site_admin: false },
    html_url: `https://github.example.com/argoproj-labs/${name}`,
    fork: false,
    url: `https://github.example.com/api/v3/repos/argoproj-labs/${name}`,
    git_url: `git://github.example.com/argoproj-labs/${name}.git`,
    ssh_url: `git@github.example.com:argoproj-labs/${name}.git`,
    clone_url: `https://github.example.com/argoproj-labs/${name}.git`,
    default_branch: defaultBranch,
    topics,
    visibility: 'public',
    archived: false,
    ...extra,
  };
}

function branch(name: string, sha: string): Record<string, unknown> {
  return { name, commit: { sha, url: `https://github.example.com/api/v3/repos/argoproj-labs/argocd-autopilot/commits/${sha}` }, protected: name === 'main' };
}

const NOT_FOUND = (doc: string): RecordedAnswer => ({
  status: 404,
  headers: RATE,
  body: { message: 'Not Found', documentation_url: `https://docs.github.com/rest/${doc}`, status: '404' },
});

/** The organisation `argoproj-labs` over three pages, its branches, contents and failures. */
export const GITHUB_RECORDINGS: Recordings = {
  'GET /api/v3/orgs/argoproj-labs/repos?per_page=100': {
    headers: { ...RATE, etag: 'W/"5c1f0b0e"', link: `<${ORG_PAGES}&page=2>; rel="next", <${ORG_PAGES}&page=3>; rel="last"` },
    body: [repo(301270000, 'argocd-autopilot', 'main', ['argocd', 'gitops']), repo(301270001, 'argocd-image-updater', 'master', ['argocd'])],
  },
  'GET /api/v3/organizations/33170279/repos?per_page=100&page=2': {
    headers: {
      ...RATE,
      link: `<${ORG_PAGES}&page=1>; rel="prev", <${ORG_PAGES}&page=3>; rel="next", <${ORG_PAGES}&page=3>; rel="last", <${ORG_PAGES}&page=1>; rel="first"`,
    },
    body: [repo(301270002, 'empty-repo', 'main', [])],
  },
  'GET /api/v3/organizations/33170279/repos?per_page=100&page=3': {
    headers: { ...RATE, link: `<${ORG_PAGES}&page=2>; rel="prev", <${ORG_PAGES}&page=1>; rel="first"` },
    body: [repo(301270003, 'old-plugin', 'main', ['deprecated'], { archived: true })],
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/branches/main': {
    headers: RATE,
    body: { ...branch('main', 'c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6'), _links: { self: 'x', html: 'y' }, protection_url: 'z' },
  },
  'GET /api/v3/repos/argoproj-labs/empty-repo/branches/main': {
    status: 404,
    headers: RATE,
    body: { message: 'Branch not found', documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch', status: '404' },
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/branches?per_page=100': {
    headers: { ...RATE, link: `<${BRANCH_PAGES}&page=2>; rel="next", <${BRANCH_PAGES}&page=2>; rel="last"` },
    body: [branch('feature/hydrator', '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567'), branch('main', 'c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6')],
  },
  'GET /api/v3/repositories/301270000/branches?per_page=100&page=2': {
    headers: { ...RATE, link: `<${BRANCH_PAGES}&page=1>; rel="prev"` },
    body: [branch('release-v0.4', 'fedcba9876543210fedcba9876543210fedcba98')],
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/branches/release%2Fv0.4': {
    headers: RATE,
    body: branch('release/v0.4', '1111111111111111111111111111111111111111'),
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/contents/manifests/base?ref=main': {
    headers: RATE,
    body: [{ type: 'file', name: 'kustomization.yaml', path: 'manifests/base/kustomization.yaml', sha: '3d4f5a', size: 120 }],
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/contents/go.mod?ref=c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6': {
    status: 200,
    body: { type: 'file', name: 'go.mod', path: 'go.mod', sha: 'b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9', size: 2134 },
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/contents/go.mod?ref=main': {
    headers: RATE,
    body: { type: 'file', encoding: 'base64', size: 4096, name: 'go.mod', path: 'go.mod', content: 'bW9kdWxl\n', sha: '9a8b7c' },
  },
  'GET /api/v3/repos/argoproj-labs/argocd-autopilot/contents/charts/missing?ref=main': NOT_FOUND('repos/contents#get-repository-content'),
  'GET /api/v3/orgs/locked-org/repos?per_page=100': {
    status: 401,
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' },
    body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
  },
  'GET /api/v3/repos/argoproj-labs/argocd-image-updater/branches/master': {
    status: 500,
    headers: RATE,
    body: { message: 'Server Error' },
  },
  'GET /api/v3/orgs/moved-org/repos?per_page=100': {
    headers: { ...RATE, link: '<https://api.github.com/organizations/1/repos?per_page=100&page=2>; rel="next"' },
    body: [repo(1, 'lonely', 'main', [])],
  },
};
