// GitLab (gitlab.com and self-managed): the projects of one group, as Argo CD's GitLab SCM provider
// lists them through the GitLab client-go SDK.
import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { ConfigMapKeyRef, RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readOptionalString, readString } from '../../spec-reading.js';
import { idAt, listOf, objectOf, stringAt, stringsAt, type AnswerObject } from './answers.js';
import { unknownCloneProtocol } from './clone-protocol.js';
import { readBooleanDefaultTrue, readKnownFields, readOptionalApiUrl, readOptionalConfigMapRef, readOptionalSecretRef } from './spec-fields.js';
import { segment } from './url-paths.js';

/** The `gitlab` part of an `scmProvider` generator. */
export interface GitlabSpec {
  /** A group id or its full path. */
  readonly group: string;
  readonly includeSubgroups: boolean;
  /** As written; '' for gitlab.com. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  readonly allBranches: boolean;
  readonly insecure: boolean;
  /** Absent means true (Argo CD's WillIncludeSharedProjects). */
  readonly includeSharedProjects: boolean;
  readonly topic: string;
  readonly caRef: ConfigMapKeyRef | undefined;
}

const FIELDS = ['group', 'includeSubgroups', 'api', 'tokenRef', 'allBranches', 'insecure', 'includeSharedProjects', 'topic', 'caRef'];
const PAGE_SIZE = 100;

/** GitLab's project listing. */
export const gitlabRepositories: RepositoryProvider<GitlabSpec> = {
  name: 'gitlab',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      group: readString(spec['group'], `${field}.group`),
      includeSubgroups: readBoolean(spec['includeSubgroups'], `${field}.includeSubgroups`),
      api: readOptionalApiUrl(spec['api'], `${field}.api`),
      tokenRef: readOptionalSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
      includeSharedProjects: readBooleanDefaultTrue(spec['includeSharedProjects'], `${field}.includeSharedProjects`),
      topic: readOptionalString(spec['topic'], `${field}.topic`),
      caRef: readOptionalConfigMapRef(spec['caRef'], `${field}.caRef`),
    };
  },
  connection: (spec) => ({
    provider: 'gitlab',
    apiBase: gitlabApiBase(spec.api),
    customApiUrl: spec.api,
    auth: spec.tokenRef
      ? { kind: 'token', ref: spec.tokenRef, toAuth: (token) => ({ kind: 'header', name: 'PRIVATE-TOKEN', value: token }) }
      : { kind: 'none' },
    ...(spec.caRef ? { caRef: spec.caRef } : {}),
    insecure: spec.insecure,
  }),
  organization: (spec) => spec.group,
  question: (spec) =>
    JSON.stringify({
      group: spec.group,
      includeSubgroups: spec.includeSubgroups,
      includeSharedProjects: spec.includeSharedProjects,
      topic: spec.topic,
      allBranches: spec.allBranches,
    }),
  source: (client, spec) => gitlabSource(client, spec),
};

/** The API base client-go derives from a URL: `api/v4/` appended unless the path already ends with it. */
export function gitlabApiBase(api: string): string {
  const url = new URL(api === '' ? 'https://gitlab.com/' : api.endsWith('/') ? api : `${api}/`);
  if (!url.pathname.endsWith('api/v4/')) url.pathname += 'api/v4/';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/$/, '');
}

/** client-go's escaping of project ids and file paths: a dot is escaped too, so `a.yaml` is never read as a format suffix. */
function gitlabEscape(value: string): string {
  return segment(value).replaceAll('.', '%2E');
}

function gitlabSource(client: ApiClient, spec: GitlabSpec): RepositorySource {
  return {
    async listRepos(cloneProtocol, signal) {
      // Argo CD sends every option, false and '' included (client-go encodes set pointers), and no `archived`: archived projects are listed.
      const query = { include_subgroups: spec.includeSubgroups, per_page: PAGE_SIZE, topic: spec.topic, with_shared: spec.includeSharedProjects };
      const projects = await listByPageNumber(client, `groups/${gitlabEscape(spec.group)}/projects`, query, signal);
      return projects.map((project) => toRepository(project, cloneProtocol));
    },
    getBranches: (repo, signal) => (spec.allBranches ? allBranches(client, repo, signal) : defaultBranch(client, repo, signal)),
    repoHasPath: (repo, path, signal) => hasPath(client, repo, path, signal),
  };
}

/**
 * Every item of a listing paged by `X-Next-Page`; `allowStatus` lets a 404 through as an empty listing. GitLab
 * leaves `X-Next-Page` empty on the last page (and leaves out `X-Total-Pages` past 10,000 items, so that one is not used).
 */
async function listByPageNumber(
  client: ApiClient,
  path: string,
  query: Readonly<Record<string, string | number | boolean>>,
  signal: AbortSignal,
  allowStatus: readonly number[] = [],
): Promise<AnswerObject[]> {
  const page = (number?: string): Promise<ApiResponse> => client.request(path, signal, { query: { ...query, page: number }, allowStatus });
  return collectPages(
    () => page(),
    (next) => page(next),
    (answer) => (answer.status === 200 && /^\d+$/.test(answer.headers['x-next-page'] ?? '') ? answer.headers['x-next-page'] : undefined),
    (answer) => (allowStatus.includes(answer.status) ? [] : listOf(answer)),
  );
}

function toRepository(project: AnswerObject, cloneProtocol: string): ScmRepository {
  const topics = stringsAt(project, 'topics');
  return {
    organization: stringAt(project, 'namespace', 'full_path'),
    repository: stringAt(project, 'path'),
    url: cloneUrl(project, cloneProtocol),
    branch: stringAt(project, 'default_branch'),
    sha: '',
    // `tag_list` is what GitLab before 14.5 called topics.
    labels: topics.length > 0 ? topics : stringsAt(project, 'tag_list'),
    repositoryId: idAt(project, 'id'),
  };
}

function cloneUrl(project: AnswerObject, cloneProtocol: string): string {
  if (cloneProtocol === '' || cloneProtocol === 'ssh') return stringAt(project, 'ssh_url_to_repo');
  if (cloneProtocol === 'https') return stringAt(project, 'http_url_to_repo');
  throw unknownCloneProtocol('GitLab', cloneProtocol, ['ssh', 'https']);
}

function branchesPath(repo: ScmRepository): string {
  return `projects/${gitlabEscape(String(repo.repositoryId))}/repository/branches`;
}

/** The default branch only; a 404 (empty project, or a default branch that is gone) lists nothing. */
async function defaultBranch(client: ApiClient, repo: ScmRepository, signal: AbortSignal): Promise<ScmRepository[]> {
  const answer = await client.request(`${branchesPath(repo)}/${segment(repo.branch)}`, signal, { allowStatus: [404] });
  return answer.status === 404 ? [] : [withBranch(repo, objectOf(answer))];
}

async function allBranches(client: ApiClient, repo: ScmRepository, signal: AbortSignal): Promise<ScmRepository[]> {
  const branches = await listByPageNumber(client, branchesPath(repo), { per_page: PAGE_SIZE }, signal, [404]);
  return branches.map((branch) => withBranch(repo, branch));
}

function withBranch(repo: ScmRepository, branch: AnswerObject): ScmRepository {
  return { ...repo, branch: stringAt(branch, 'name'), sha: stringAt(branch, 'commit', 'id') };
}

/**
 * As Argo CD: the project is looked up by its path, then the path is tried as a file and, on a 404, as a
 * directory (GitLab 17.7+ answers 404 for a file given to the tree API, so the tree alone cannot tell).
 */
async function hasPath(client: ApiClient, repo: ScmRepository, path: string, signal: AbortSignal): Promise<boolean> {
  const project = objectOf(await client.request(`projects/${gitlabEscape(`${repo.organization}/${repo.repository}`)}`, signal));
  const projectPath = `projects/${gitlabEscape(String(idAt(project, 'id')))}/repository`;
  const file = await client.request(`${projectPath}/files/${gitlabEscape(path)}`, signal, { query: { ref: repo.branch }, allowStatus: [404] });
  if (file.status !== 404) return true;
  const tree = await client.request(`${projectPath}/tree`, signal, { query: { path, ref: repo.branch }, allowStatus: [404] });
  return tree.status !== 404;
}
