// Recorded Gitea API v1 answers, trimmed, with Gitea's Link and X-Total-Count headers and its error
// bodies (`{"errors": …, "message": …, "url": …}`).
import { ORIGIN, type Recordings } from '../recorded-api.js';

const SWAGGER = 'https://gitea.example.com/api/swagger';

function repo(id: number, name: string, defaultBranch: string): Record<string, unknown> {
  return {
    id,
    owner: { id: 31480, login: 'argocd-apps', full_name: '', username: 'argocd-apps', visibility: 'public' },
    name,
    full_name: `argocd-apps/${name}`,
    empty: false,
    private: false,
    fork: false,
    html_url: `https://gitea.example.com/argocd-apps/${name}`,
    ssh_url: `git@gitea.example.com:argocd-apps/${name}.git`,
    clone_url: `https://gitea.example.com/argocd-apps/${name}.git`,
    default_branch: defaultBranch,
    archived: false,
    topics: ['ignored-by-argo-cd'],
  };
}

function label(id: number, name: string): Record<string, unknown> {
  return {
    id,
    name,
    exclusive: false,
    is_archived: false,
    color: 'e11d21',
    description: '',
    url: `https://gitea.example.com/api/v1/repos/argocd-apps/x/labels/${id}`,
  };
}

function branch(name: string, id: string): Record<string, unknown> {
  return {
    name,
    commit: { id, message: 'initial commit\n', url: `https://gitea.example.com/argocd-apps/guestbook/commit/${id}`, timestamp: '2025-04-05T14:29:51-04:00' },
    protected: false,
    user_can_push: false,
  };
}

const REPOS = `${ORIGIN}/api/v1/orgs/argocd-apps/repos`;

/** The organisation `argocd-apps` over two pages, its labels, branches, contents and failures. */
export const GITEA_RECORDINGS: Recordings = {
  'GET /api/v1/orgs/argocd-apps/repos?limit=0&page=1': {
    headers: { 'x-total-count': '3', link: `<${REPOS}?limit=2&page=2>; rel="next",<${REPOS}?limit=2&page=2>; rel="last"` },
    body: [repo(21618, 'guestbook', 'main'), repo(21619, 'helm-guestbook', 'master')],
  },
  'GET /api/v1/orgs/argocd-apps/repos?limit=2&page=2': {
    headers: { 'x-total-count': '3', link: `<${REPOS}?limit=2&page=1>; rel="first",<${REPOS}?limit=2&page=1>; rel="prev"` },
    body: [repo(21620, 'kustomize-guestbook', 'main')],
  },
  'GET /api/v1/repos/argocd-apps/guestbook/labels?limit=0&page=1': { headers: { 'x-total-count': '2' }, body: [label(1, 'deploy'), label(2, 'team-a')] },
  'GET /api/v1/repos/argocd-apps/helm-guestbook/labels?limit=0&page=1': { headers: { 'x-total-count': '0' }, body: [] },
  'GET /api/v1/repos/argocd-apps/kustomize-guestbook/labels?limit=0&page=1': {
    headers: { 'x-total-count': '2', link: `<${ORIGIN}/api/v1/repos/argocd-apps/kustomize-guestbook/labels?limit=1&page=2>; rel="next"` },
    body: [label(3, 'kustomize')],
  },
  'GET /api/v1/repos/argocd-apps/kustomize-guestbook/labels?limit=1&page=2': { headers: { 'x-total-count': '2' }, body: [label(4, 'deploy')] },
  'GET /api/v1/repos/argocd-apps/guestbook/branches/main': { body: branch('main', '72687815ccba81ef014a96201cc2e846a68789d8') },
  'GET /api/v1/repos/argocd-apps/guestbook/branches/release%2F1.0': { body: branch('release/1.0', '1234567890abcdef1234567890abcdef12345678') },
  'GET /api/v1/repos/argocd-apps/empty/branches/main': {
    status: 404,
    body: { errors: null, message: "The target couldn't be found.", url: SWAGGER },
  },
  'GET /api/v1/repos/argocd-apps/guestbook/branches?limit=0&page=1': {
    headers: { 'x-total-count': '3', link: `<${ORIGIN}/api/v1/repos/argocd-apps/guestbook/branches?limit=2&page=2>; rel="next"` },
    body: [branch('develop', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), branch('main', '72687815ccba81ef014a96201cc2e846a68789d8')],
  },
  'GET /api/v1/repos/argocd-apps/guestbook/branches?limit=2&page=2': {
    headers: { 'x-total-count': '3' },
    body: [branch('feature/x', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')],
  },
  'GET /api/v1/repos/argocd-apps/guestbook/contents/README.md?ref=main': {
    body: {
      name: 'README.md',
      path: 'README.md',
      sha: '3605625ef4b3a7a7b6aa0d2ae0d4c2e3a6c0e0a1',
      type: 'file',
      size: 420,
      encoding: 'base64',
      content: 'IyBndWVzdGJvb2sK',
    },
  },
  'GET /api/v1/repos/argocd-apps/guestbook/contents/manifests/base?ref=main': {
    body: [{ name: 'deployment.yaml', path: 'manifests/base/deployment.yaml', type: 'file', size: 800 }],
  },
  'GET /api/v1/repos/argocd-apps/guestbook/contents/notathing?ref=main': {
    status: 404,
    body: { errors: ['object does not exist [id: , rel_path: notathing]'], message: 'GetContentsOrList', url: SWAGGER },
  },
  'GET /api/v1/orgs/private-org/repos?limit=0&page=1': { status: 401, body: { message: 'token is required', url: SWAGGER } },
  'GET /api/v1/repos/argocd-apps/helm-guestbook/branches/master': { status: 500, body: { message: 'internal error', url: SWAGGER } },
  'GET /api/v1/orgs/moved-org/repos?limit=0&page=1': {
    headers: { link: '<https://gitea.com/api/v1/orgs/moved-org/repos?limit=1&page=2>; rel="next"' },
    body: [repo(1, 'lonely', 'main')],
  },
};
