// Azure DevOps: the Git repositories of one team project, as Argo CD's Azure DevOps SCM provider lists
// them through azure-devops-go-api.
import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';
import type { RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { failedAnswer, isAnswerObject, listUnder, objectOf, stringAt, valueAt, type AnswerObject } from './answers.js';
import { readKnownFields, readOptionalApiUrl, readSecretRef } from './spec-fields.js';
import { segment } from './url-paths.js';

/** The `azureDevOps` part of an `scmProvider` generator. */
export interface AzureDevOpsSpec {
  readonly organization: string;
  /** As written; '' for https://dev.azure.com. */
  readonly api: string;
  readonly teamProject: string;
  /** The personal access token: required, Argo CD refuses to work without one. */
  readonly accessTokenRef: SecretKeyRef;
  readonly allBranches: boolean;
}

const FIELDS = ['organization', 'api', 'teamProject', 'accessTokenRef', 'allBranches'];
const DEFAULT_API = 'https://dev.azure.com';
// What the SDK sends: the version goes in Accept, and FedAuth redirects (to a sign-in page) are turned into 401s.
const HEADERS = { accept: 'application/json;api-version=7.1-preview.1', 'x-tfs-fedauthredirect': 'Suppress' };
// Azure DevOps names its errors; these two mean "nothing there" rather than a failure.
const REPOSITORY_NOT_FOUND = 'GitRepositoryNotFoundException';
const ITEM_NOT_FOUND = 'GitItemNotFoundException';

/** Azure DevOps' repository listing. */
export const azureDevOpsRepositories: RepositoryProvider<AzureDevOpsSpec> = {
  name: 'azureDevOps',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      organization: readString(spec['organization'], `${field}.organization`),
      api: readOptionalApiUrl(spec['api'], `${field}.api`),
      teamProject: readString(spec['teamProject'], `${field}.teamProject`),
      accessTokenRef: readSecretRef(spec['accessTokenRef'], `${field}.accessTokenRef`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
    };
  },
  connection: (spec) => ({
    provider: 'azureDevOps',
    apiBase: azureDevOpsApiBase(spec.api, spec.organization),
    customApiUrl: spec.api,
    auth: { kind: 'basic', username: '', passwordRef: spec.accessTokenRef },
    insecure: false,
  }),
  organization: (spec) => spec.organization,
  question: (spec) => JSON.stringify({ organization: spec.organization, teamProject: spec.teamProject, allBranches: spec.allBranches }),
  source: (client, spec) => azureDevOpsSource(client, spec),
};

/** The organisation URL the SDK talks to: the API URL and the organisation joined, lower-cased, trailing slashes dropped. */
export function azureDevOpsApiBase(api: string, organization: string): string {
  const root = api === '' ? DEFAULT_API : api;
  return `${root}${root.endsWith('/') ? '' : '/'}${organization}`.replace(/\/+$/, '').toLowerCase();
}

function azureDevOpsSource(client: ApiClient, spec: AzureDevOpsSpec): RepositorySource {
  const repositories = `${segment(spec.teamProject)}/_apis/git/repositories`;
  const get = (path: string, signal: AbortSignal, query: Readonly<Record<string, string>> = {}): Promise<ApiResponse> =>
    client.request(path, signal, { query, headers: HEADERS, allowStatus: [404] });
  return {
    async listRepos(_cloneProtocol, signal) {
      // Argo CD ignores cloneProtocol here: the URL is always the https remote URL.
      const answer = expectFound(await get(repositories, signal));
      return listUnder(answer, 'value').flatMap((item) => toRepository(spec.organization, item));
    },
    async getBranches(repo, signal) {
      const stats = `${repositories}/${segment(repo.repository)}/stats/branches`;
      if (spec.allBranches) {
        const answer = await get(stats, signal);
        return isMissing(answer, REPOSITORY_NOT_FOUND) ? [] : listUnder(expectFound(answer), 'value').map((branch) => withBranch(repo, branch));
      }
      // The listing gives `refs/heads/main`; the branch statistics want the bare name.
      const answer = await get(stats, signal, { name: repo.branch.replace('refs/heads/', '') });
      return isMissing(answer, REPOSITORY_NOT_FOUND) ? [] : [withBranch(repo, objectOf(expectFound(answer)))];
    },
    async repoHasPath(repo, path, signal) {
      const items = `${repositories}/${segment(String(repo.repositoryId))}/items`;
      const answer = await get(items, signal, { path, 'versionDescriptor.version': repo.branch });
      if (isMissing(answer, ITEM_NOT_FOUND)) return false;
      expectFound(answer);
      return true;
    },
  };
}

/** A repository lacking any of name, default branch, remote URL or id (an empty one has no default branch) is left out. */
function toRepository(organization: string, item: AnswerObject): ScmRepository[] {
  const [name, branch, url, id] = ['name', 'defaultBranch', 'remoteUrl', 'id'].map((key) => stringAt(item, key));
  if (!name || !branch || !url || !id) return [];
  return [{ organization, repository: name, url, branch, sha: '', labels: [], repositoryId: id }];
}

function withBranch(repo: ScmRepository, branch: AnswerObject): ScmRepository {
  const name = valueAt(branch, 'name');
  const commit = valueAt(branch, 'commit', 'commitId');
  if (typeof name !== 'string' || typeof commit !== 'string')
    throw new ScmApiError(`Azure DevOps answered a branch of ${repo.repository} without name or commit`, 0);
  return { ...repo, branch: name, sha: commit, labels: [] };
}

/** True for a 404 whose error names `typeKey`. */
function isMissing(answer: ApiResponse, typeKey: string): boolean {
  return answer.status === 404 && isAnswerObject(answer.body) && answer.body['typeKey'] === typeKey;
}

/** The answer, unless it is a 404 that was let through only to read its error kind. */
function expectFound(answer: ApiResponse): ApiResponse {
  if (answer.status !== 404) return answer;
  const message = isAnswerObject(answer.body) ? stringAt(answer.body, 'message') : '';
  throw failedAnswer(answer, message || undefined);
}
