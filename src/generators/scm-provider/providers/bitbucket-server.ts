// Bitbucket Server / Data Center (REST API 1.0): the repositories of one project, as Argo CD's Bitbucket
// Server SCM provider lists them through go-bitbucket-v1.
import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { AuthPlan, ConfigMapKeyRef, RepositoryProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { idAt, listUnder, objectOf, objectsAt, stringAt, valueAt, type AnswerObject } from './answers.js';
import { unknownCloneProtocol } from './clone-protocol.js';
import { readApiUrl, readKnownFields, readOptionalConfigMapRef, readSecretRef } from './spec-fields.js';
import { filePath, segment } from './url-paths.js';

/** The `bitbucketServer` part of an `scmProvider` generator. */
export interface BitbucketServerSpec {
  /** The project key. */
  readonly project: string;
  /** The server (or its `/rest` URL), as written. */
  readonly api: string;
  readonly basicAuth: { readonly username: string; readonly passwordRef: SecretKeyRef } | undefined;
  /** Wins over `basicAuth` when both are given, as in Argo CD. */
  readonly bearerToken: { readonly tokenRef: SecretKeyRef } | undefined;
  readonly allBranches: boolean;
  readonly insecure: boolean;
  readonly caRef: ConfigMapKeyRef | undefined;
}

const FIELDS = ['project', 'api', 'basicAuth', 'bearerToken', 'allBranches', 'insecure', 'caRef'];
const PAGE_SIZE = 100;
// Sent with credentials only, as Argo CD does: they keep Bitbucket's XSRF check from refusing the requests.
const XSRF_HEADERS = { 'x-atlassian-token': 'no-check', 'x-requested-with': 'XMLHttpRequest' };

/** Bitbucket Server's repository listing. */
export const bitbucketServerRepositories: RepositoryProvider<BitbucketServerSpec> = {
  name: 'bitbucketServer',
  readSpec(raw, field) {
    const spec = readKnownFields(raw, field, FIELDS);
    return {
      project: readString(spec['project'], `${field}.project`),
      api: readApiUrl(spec['api'], `${field}.api`),
      basicAuth: readBasicAuth(spec['basicAuth'], `${field}.basicAuth`),
      bearerToken: readBearerToken(spec['bearerToken'], `${field}.bearerToken`),
      allBranches: readBoolean(spec['allBranches'], `${field}.allBranches`),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
      caRef: readOptionalConfigMapRef(spec['caRef'], `${field}.caRef`),
    };
  },
  connection: (spec) => ({
    provider: 'bitbucketServer',
    apiBase: bitbucketServerApiBase(spec.api),
    customApiUrl: spec.api,
    auth: bitbucketServerAuth(spec),
    ...(spec.caRef ? { caRef: spec.caRef } : {}),
    insecure: spec.insecure,
  }),
  organization: (spec) => spec.project,
  question: (spec) => JSON.stringify({ project: spec.project, allBranches: spec.allBranches }),
  source: (client, spec) => bitbucketServerSource(client, spec),
};

function readBasicAuth(value: unknown, field: string): BitbucketServerSpec['basicAuth'] {
  if (value === undefined || value === null) return undefined;
  const object = readKnownFields(value, field, ['username', 'passwordRef']);
  return { username: readString(object['username'], `${field}.username`), passwordRef: readSecretRef(object['passwordRef'], `${field}.passwordRef`) };
}

function readBearerToken(value: unknown, field: string): BitbucketServerSpec['bearerToken'] {
  if (value === undefined || value === null) return undefined;
  const object = readKnownFields(value, field, ['tokenRef']);
  return { tokenRef: readSecretRef(object['tokenRef'], `${field}.tokenRef`) };
}

/** Argo CD's base path: the URL given, with `/rest` appended unless it already ends with it (a trailing slash after it dropped). */
export function bitbucketServerApiBase(api: string): string {
  if (api.endsWith('/rest/')) return api.slice(0, -1);
  return api.endsWith('/rest') ? api : `${api}/rest`;
}

function bitbucketServerAuth(spec: BitbucketServerSpec): AuthPlan {
  if (spec.bearerToken) return { kind: 'token', ref: spec.bearerToken.tokenRef, toAuth: (token) => ({ kind: 'bearer', token }) };
  if (spec.basicAuth) return { kind: 'basic', username: spec.basicAuth.username, passwordRef: spec.basicAuth.passwordRef };
  return { kind: 'none' };
}

function bitbucketServerSource(client: ApiClient, spec: BitbucketServerSpec): RepositorySource {
  const headers = spec.bearerToken || spec.basicAuth ? XSRF_HEADERS : {};
  const get = (path: string, signal: AbortSignal, query: Readonly<Record<string, string | number | boolean | undefined>> = {}, allowStatus: number[] = []) =>
    client.request(path, signal, { query, headers, allowStatus });
  const repoPath = (project: string, repository: string): string => `api/1.0/projects/${segment(project)}/repos/${segment(repository)}`;
  const defaultBranch = async (project: string, repository: string, signal: AbortSignal): Promise<AnswerObject | undefined> => {
    const answer = await get(`${repoPath(project, repository)}/branches/default`, signal, {}, [404]);
    // A 404 is a default branch that does not exist; an empty answer an empty repository with none set.
    return answer.status === 404 || answer.body === undefined ? undefined : objectOf(answer);
  };
  return {
    async listRepos(cloneProtocol, signal) {
      const items = await listByStart((query) => get(`api/1.0/projects/${segment(spec.project)}/repos`, signal, query));
      const repos: ScmRepository[] = [];
      for (const item of items) {
        const url = cloneUrl(item, cloneProtocol);
        // The listing has no default branch, so each repository's is read; one without is left out.
        const branch = await defaultBranch(stringAt(item, 'project', 'key'), stringAt(item, 'name'), signal);
        if (branch) repos.push(toRepository(item, url, branch));
      }
      return repos;
    },
    async getBranches(repo, signal) {
      if (!spec.allBranches) {
        const branch = await defaultBranch(repo.organization, repo.repository, signal);
        return branch ? [withBranch(repo, branch)] : [];
      }
      const branches = await listByStart((query) => get(`${repoPath(repo.organization, repo.repository)}/branches`, signal, query));
      return branches.map((branch) => withBranch(repo, branch));
    },
    async repoHasPath(repo, path, signal) {
      // One page of the browse API is enough: only whether the path exists matters.
      const query = { at: repo.branch, limit: PAGE_SIZE, type: true };
      const answer = await get(`${repoPath(repo.organization, repo.repository)}/browse/${filePath(path)}`, signal, query, [404]);
      return answer.status !== 404;
    },
  };
}

/** Every item of a listing paged by `start`: `isLastPage` false names the next one's `nextPageStart`. */
function listByStart(page: (query: Readonly<Record<string, number | undefined>>) => Promise<ApiResponse>): Promise<AnswerObject[]> {
  return collectPages(
    () => page({ limit: PAGE_SIZE }),
    (start) => page({ limit: PAGE_SIZE, start: Number(start) }),
    (answer) => {
      const body = objectOf(answer);
      const start = valueAt(body, 'nextPageStart');
      return valueAt(body, 'isLastPage') === false && typeof start === 'number' ? String(start) : undefined;
    },
    (answer) => listUnder(answer, 'values'),
  );
}

/** The `ssh` clone link, or the `http` one (which serves https too) for https. */
function cloneUrl(item: AnswerObject, cloneProtocol: string): string {
  const name = cloneProtocol === '' || cloneProtocol === 'ssh' ? 'ssh' : cloneProtocol === 'https' ? 'http' : undefined;
  if (name === undefined) throw unknownCloneProtocol('Bitbucket Server', cloneProtocol, ['ssh', 'https']);
  const link = objectsAt(item, 'links', 'clone').find((l) => l['name'] === name);
  return link ? stringAt(link, 'href') : '';
}

function toRepository(item: AnswerObject, url: string, branch: AnswerObject): ScmRepository {
  // The repository's display name, not its slug, as Argo CD (paths built from it later use it too).
  const repository = stringAt(item, 'name');
  const base = { organization: stringAt(item, 'project', 'key'), repository, url, branch: '', sha: '', labels: [], repositoryId: idAt(item, 'id') };
  return withBranch(base, branch);
}

function withBranch(repo: ScmRepository, branch: AnswerObject): ScmRepository {
  return { ...repo, branch: stringAt(branch, 'displayId'), sha: stringAt(branch, 'latestCommit') };
}
