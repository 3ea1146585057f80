// GitHub (github.com and GitHub Enterprise): the repositories of one organisation, as Argo CD's GitHub
// SCM provider lists them through go-github.
import type { ApiClient } from '../../../scm/http/api-client.js';
import { ScmRequestRefused } from '../../../scm/http/errors.js';
import type { AuthPlan, RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readOptionalString, readString } from '../../spec-reading.js';
import { idAt, objectOf, stringAt, stringsAt, type AnswerObject } from './answers.js';
import { unknownCloneProtocol } from './clone-protocol.js';
import { listByLink } from './link-paging.js';
import { readKnownFields, readOptionalApiUrl, readOptionalSecretRef } from './spec-fields.js';
import { filePath, segment } from './url-paths.js';

/** The `github` part of an `scmProvider` generator. */
export interface GithubSpec {
  readonly organization: string;
  /** As written; '' for github.com. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  /** A GitHub App `repo-creds` Secret; when set it wins over `tokenRef`, as in Argo CD. */
  readonly appSecretName: string;
  readonly allBranches: boolean;
}

const FIELDS = ['organization', 'api', 'tokenRef', 'appSecretName', 'allBranches'];
// go-github asks for the listing with these previews, which is how topics came to be included.
const LISTING_ACCEPT = 'application/vnd.github.mercy-preview+json, application/vnd.github.nebula-preview+json';
const PAGE_SIZE = 100;

/** GitHub's repository listing. */
export const githubRepositories: RepositoryProvider<GithubSpec> = {
  name: 'github',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      organization: readString(spec['organization'], `${field}.organization`),
      api: readOptionalApiUrl(spec['api'], `${field}.api`),
      tokenRef: readOptionalSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      appSecretName: readOptionalString(spec['appSecretName'], `${field}.appSecretName`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
    };
  },
  connection: (spec) => ({ provider: 'github', apiBase: githubApiBase(spec.api), customApiUrl: spec.api, auth: githubAuth(spec), insecure: false }),
  organization: (spec) => spec.organization,
  question: (spec) => JSON.stringify({ organization: spec.organization, allBranches: spec.allBranches }),
  source: (client, spec) => githubSource(client, spec),
};

/** The API base go-github derives from an Enterprise URL: `/api/v3/` appended unless the host or path already names the API. */
export function githubApiBase(api: string): string {
  if (api === '') return 'https://api.github.com';
  const url = new URL(api);
  let path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  if (!path.endsWith('/api/v3/') && !url.host.startsWith('api.') && !url.host.includes('.api.')) path += 'api/v3/';
  url.pathname = path;
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/$/, '');
}

function githubAuth(spec: GithubSpec): AuthPlan {
  if (spec.appSecretName !== '') return { kind: 'githubApp', secretName: spec.appSecretName };
  if (spec.tokenRef) return { kind: 'token', ref: spec.tokenRef, toAuth: (token) => ({ kind: 'bearer', token }) };
  return { kind: 'none' };
}

function githubSource(client: ApiClient, spec: GithubSpec): RepositorySource {
  return {
    // Paths are checked at the listed commit (below), so their answers may be remembered.
    pathsAtCommit: true,
    async listRepos(cloneProtocol, signal) {
      const path = `orgs/${segment(spec.organization)}/repos`;
      const items = await listByLink(client, path, signal, { query: { per_page: PAGE_SIZE }, headers: { accept: LISTING_ACCEPT } });
      return items.map((item) => toRepository(item, cloneProtocol));
    },
    getBranches: (repo, signal) => (spec.allBranches ? allBranches(client, repo, signal) : defaultBranch(client, repo, signal)),
    repoHasPath: (repo, path, signal) => hasPath(client, repo, path, signal),
  };
}

function toRepository(item: AnswerObject, cloneProtocol: string): ScmRepository {
  return {
    organization: stringAt(item, 'owner', 'login'),
    repository: stringAt(item, 'name'),
    url: cloneUrl(item, cloneProtocol),
    branch: stringAt(item, 'default_branch'),
    sha: '',
    labels: stringsAt(item, 'topics'),
    repositoryId: idAt(item, 'id'),
  };
}

/** ssh unless https is asked for; nothing else exists on GitHub. */
function cloneUrl(item: AnswerObject, cloneProtocol: string): string {
  if (cloneProtocol === '' || cloneProtocol === 'ssh') return stringAt(item, 'ssh_url');
  if (cloneProtocol === 'https') return stringAt(item, 'clone_url');
  throw unknownCloneProtocol('GitHub', cloneProtocol, ['ssh', 'https']);
}

function repoPath(repo: ScmRepository): string {
  return `repos/${segment(repo.organization)}/${segment(repo.repository)}`;
}

/** The default branch only; a 404 means the repository is empty (no branch yet), which lists nothing. */
async function defaultBranch(client: ApiClient, repo: ScmRepository, signal: AbortSignal): Promise<ScmRepository[]> {
  const answer = await client.request(`${repoPath(repo)}/branches/${segment(repo.branch)}`, signal, { allowStatus: [404] });
  if (answer.status === 404) return [];
  return [withBranch(repo, objectOf(answer))];
}

async function allBranches(client: ApiClient, repo: ScmRepository, signal: AbortSignal): Promise<ScmRepository[]> {
  const branches = await listByLink(client, `${repoPath(repo)}/branches`, signal, { query: { per_page: PAGE_SIZE } });
  return branches.map((branch) => withBranch(repo, branch));
}

function withBranch(repo: ScmRepository, branch: AnswerObject): ScmRepository {
  return { ...repo, branch: stringAt(branch, 'name'), sha: stringAt(branch, 'commit', 'sha') };
}

/**
 * The contents API: a file or a directory answers 200, a missing path 404. Asked at the commit the branch
 * listing gave (Argo CD asks at the branch), so the answer belongs to the `sha` the parameters carry, even
 * when a push lands meanwhile; before the branches are read, at the branch.
 */
async function hasPath(client: ApiClient, repo: ScmRepository, path: string, signal: AbortSignal): Promise<boolean> {
  // go-github refuses such paths before sending anything (they could climb out of the contents API).
  if (path.includes('..')) throw new ScmRequestRefused(`GitHub contents path ${JSON.stringify(path)} must not contain ".."`);
  const answer = await client.request(`${repoPath(repo)}/contents/${filePath(path.replace(/\/$/, ''))}`, signal, {
    query: { ref: repo.sha === '' ? repo.branch : repo.sha },
    allowStatus: [404],
  });
  return answer.status !== 404;
}
