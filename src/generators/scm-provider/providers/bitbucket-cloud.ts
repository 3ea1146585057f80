// Bitbucket Cloud (API 2.0): the repositories of one workspace the user is a member of, as Argo CD's
// Bitbucket Cloud SCM provider lists them through go-bitbucket.
import type { ApiClient } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { idAt, listUnder, objectOf, objectsAt, stringAt, valueAt, type AnswerObject } from './answers.js';
import { unknownCloneProtocol } from './clone-protocol.js';
import { readKnownFields, readSecretRef } from './spec-fields.js';
import { filePath, segment } from './url-paths.js';

/** The `bitbucket` part of an `scmProvider` generator. */
export interface BitbucketCloudSpec {
  /** The workspace (slug). */
  readonly owner: string;
  /** The user whose app password authenticates. */
  readonly user: string;
  readonly appPasswordRef: SecretKeyRef;
  readonly allBranches: boolean;
}

const FIELDS = ['owner', 'user', 'appPasswordRef', 'allBranches'];
/** Bitbucket Cloud's API; Argo CD offers no field to change it. */
export const BITBUCKET_CLOUD_API = 'https://api.bitbucket.org/2.0';

/** Bitbucket Cloud's repository listing. */
export const bitbucketCloudRepositories: RepositoryProvider<BitbucketCloudSpec> = {
  name: 'bitbucket',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      owner: readString(spec['owner'], `${field}.owner`),
      user: readString(spec['user'], `${field}.user`),
      appPasswordRef: readSecretRef(spec['appPasswordRef'], `${field}.appPasswordRef`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
    };
  },
  connection: (spec) => ({
    provider: 'bitbucket',
    apiBase: BITBUCKET_CLOUD_API,
    customApiUrl: '',
    auth: { kind: 'basic', username: spec.user, passwordRef: spec.appPasswordRef },
    insecure: false,
  }),
  organization: (spec) => spec.owner,
  question: (spec) => JSON.stringify({ owner: spec.owner, allBranches: spec.allBranches }),
  source: (client, spec) => bitbucketCloudSource(client, spec),
};

function bitbucketCloudSource(client: ApiClient, spec: BitbucketCloudSpec): RepositorySource {
  const repoPath = (repository: string): string => `repositories/${segment(spec.owner)}/${segment(repository)}`;
  return {
    // Paths are checked at the branch's commit (below), so their answers may be remembered.
    pathsAtCommit: true,
    async listRepos(cloneProtocol, signal) {
      // role=member: the repositories the user can read, not only public ones.
      const items = await listByNext(client, `repositories/${segment(spec.owner)}`, signal, { role: 'member' });
      return items.map((item) => toRepository(spec.owner, item, cloneProtocol));
    },
    async getBranches(repo, signal) {
      if (spec.allBranches) {
        const branches = await listByNext(client, `${repoPath(repo.repository)}/refs/branches`, signal, {});
        return branches.map((branch) => withBranch(repo, branch));
      }
      // An empty repository has no main branch; Argo CD fails on it rather than skipping it.
      if (repo.branch === '') throw new ScmApiError(`Bitbucket repository ${spec.owner}/${repo.repository} has no main branch`, 0);
      const branch = objectOf(await client.request(`${repoPath(repo.repository)}/refs/branches/${filePath(repo.branch)}`, signal));
      return [withBranch(repo, branch)];
    },
    async repoHasPath(repo, path, signal) {
      // Argo CD asks at the branch's commit, which reading the branches has filled in; the branch name serves before that.
      const ref = repo.sha === '' ? repo.branch : repo.sha;
      const answer = await client.request(`${repoPath(repo.repository)}/src/${segment(ref)}/${filePath(path)}`, signal, {
        query: { format: 'meta' },
        allowStatus: [404],
      });
      return answer.status !== 404;
    },
  };
}

/** Every value of a listing paged by the body's `next` URL (the client refuses one that leaves the origin); an empty page ends it. */
function listByNext(client: ApiClient, path: string, signal: AbortSignal, query: Readonly<Record<string, string>>): Promise<AnswerObject[]> {
  return collectPages(
    () => client.request(path, signal, { query }),
    (next) => client.request(next, signal),
    (page) => {
      const next = valueAt(objectOf(page), 'next');
      return typeof next === 'string' && next !== '' && listUnder(page, 'values').length > 0 ? next : undefined;
    },
    (page) => listUnder(page, 'values'),
  );
}

function toRepository(owner: string, item: AnswerObject, cloneProtocol: string): ScmRepository {
  return {
    organization: owner,
    repository: stringAt(item, 'slug'),
    url: cloneUrl(item, cloneProtocol),
    branch: stringAt(item, 'mainbranch', 'name'),
    sha: '',
    labels: [],
    repositoryId: idAt(item, 'uuid'),
  };
}

/** The clone link named as the protocol (`ssh` when none is given); Bitbucket names them `https` and `ssh`. */
function cloneUrl(item: AnswerObject, cloneProtocol: string): string {
  const name = cloneProtocol === '' ? 'ssh' : cloneProtocol;
  const link = objectsAt(item, 'links', 'clone').find((l) => l['name'] === name);
  if (!link) throw unknownCloneProtocol('Bitbucket Cloud', name, ['ssh', 'https']);
  return stringAt(link, 'href');
}

function withBranch(repo: ScmRepository, branch: AnswerObject): ScmRepository {
  const hash = valueAt(branch, 'target', 'hash');
  if (typeof hash !== 'string')
    throw new ScmApiError(`Bitbucket branch ${repo.organization}/${repo.repository}/${stringAt(branch, 'name')} has no commit hash`, 0);
  return { ...repo, branch: stringAt(branch, 'name'), sha: hash };
}
