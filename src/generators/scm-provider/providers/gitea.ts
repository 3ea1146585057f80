// Gitea: the repositories of one organisation, as Argo CD's Gitea SCM provider lists them through the
// Gitea Go SDK.
import type { ApiClient } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';
import type { RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { idAt, objectOf, stringAt, type AnswerObject } from './answers.js';
import { unknownCloneProtocol } from './clone-protocol.js';
import { listByLink } from './link-paging.js';
import { readApiUrl, readKnownFields, readOptionalSecretRef } from './spec-fields.js';
import { filePath, segment } from './url-paths.js';

/** The `gitea` part of an `scmProvider` generator. */
export interface GiteaSpec {
  /** The organisation (or user) whose repositories are listed. */
  readonly owner: string;
  /** The Gitea server, as written; required, since the SDK has no default host. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  readonly allBranches: boolean;
  readonly insecure: boolean;
}

const FIELDS = ['owner', 'api', 'tokenRef', 'allBranches', 'insecure'];
// The SDK's first page: page 1 with limit 0, which the server reads as its default page size.
const FIRST_PAGE = { limit: 0, page: 1 };

/** Gitea's repository listing. */
export const giteaRepositories: RepositoryProvider<GiteaSpec> = {
  name: 'gitea',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      owner: readString(spec['owner'], `${field}.owner`),
      api: readApiUrl(spec['api'], `${field}.api`),
      tokenRef: readOptionalSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
    };
  },
  connection: (spec) => ({
    provider: 'gitea',
    apiBase: giteaApiBase(spec.api),
    customApiUrl: spec.api,
    auth: spec.tokenRef
      ? { kind: 'token', ref: spec.tokenRef, toAuth: (token) => ({ kind: 'header', name: 'Authorization', value: `token ${token}` }) }
      : { kind: 'none' },
    insecure: spec.insecure,
  }),
  organization: (spec) => spec.owner,
  question: (spec) => JSON.stringify({ owner: spec.owner, allBranches: spec.allBranches }),
  source: (client, spec) => giteaSource(client, spec),
};

/** The SDK joins `/api/v1` to the server URL (one trailing slash dropped first). */
export function giteaApiBase(api: string): string {
  return `${api.replace(/\/$/, '')}/api/v1`;
}

function giteaSource(client: ApiClient, spec: GiteaSpec): RepositorySource {
  const repoPath = (repository: string): string => `repos/${segment(spec.owner)}/${segment(repository)}`;
  return {
    async listRepos(cloneProtocol, signal) {
      const items = await listByLink(client, `orgs/${segment(spec.owner)}/repos`, signal, { query: FIRST_PAGE });
      const repos: ScmRepository[] = [];
      // One label request per repository, one after the other, as Argo CD does.
      for (const item of items) {
        const url = cloneUrl(item, cloneProtocol);
        const labels = await listByLink(client, `${repoPath(stringAt(item, 'name'))}/labels`, signal, { query: FIRST_PAGE });
        repos.push(toRepository(spec.owner, item, url, labels));
      }
      return repos;
    },
    async getBranches(repo, signal) {
      if (spec.allBranches) {
        const branches = await listByLink(client, `${repoPath(repo.repository)}/branches`, signal, { query: FIRST_PAGE });
        return branches.map((branch) => ({ ...repo, branch: stringAt(branch, 'name'), sha: stringAt(branch, 'commit', 'id') }));
      }
      // Unlike the other providers, a default branch that cannot be read is an error here (an empty repository too).
      if (repo.branch === '') throw new ScmApiError(`Gitea repository ${spec.owner}/${repo.repository} has no default branch`, 0);
      const branch = objectOf(await client.request(`${repoPath(repo.repository)}/branches/${segment(repo.branch)}`, signal));
      return [{ ...repo, sha: stringAt(branch, 'commit', 'id') }];
    },
    async repoHasPath(repo, path, signal) {
      const contents = `repos/${segment(repo.organization)}/${segment(repo.repository)}/contents/${filePath(path.replace(/^\//, ''))}`;
      // A file answers an object, a directory a list: both mean the path exists.
      const answer = await client.request(contents, signal, { query: { ref: repo.branch }, allowStatus: [404] });
      return answer.status !== 404;
    },
  };
}

/** ssh, or https as the repository's web address (`html_url`), which is what Argo CD hands out for https. */
function cloneUrl(item: AnswerObject, cloneProtocol: string): string {
  if (cloneProtocol === '' || cloneProtocol === 'ssh') return stringAt(item, 'ssh_url');
  if (cloneProtocol === 'https') return stringAt(item, 'html_url');
  throw unknownCloneProtocol('Gitea', cloneProtocol, ['ssh', 'https']);
}

function toRepository(owner: string, item: AnswerObject, url: string, labels: readonly AnswerObject[]): ScmRepository {
  return {
    organization: owner,
    repository: stringAt(item, 'name'),
    url,
    branch: stringAt(item, 'default_branch'),
    sha: '',
    labels: labels.map((label) => stringAt(label, 'name')),
    repositoryId: idAt(item, 'id'),
  };
}
