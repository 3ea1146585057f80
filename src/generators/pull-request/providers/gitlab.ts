import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { ConfigMapKeyRef, PullRequestProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readBoolean, readOptionalString, readString } from '../../spec-reading.js';
import { at, entries, text, whole } from './answer.js';
import { tokenPlan } from './auth.js';
import { answeredNotFound, listingOfRepository } from './errors.js';
import { goPathEscape, goQuery, positiveInteger } from './go-url.js';
import { readApiUrl, readConfigMapRef, readLabels, readProviderObject, readSecretRef } from './spec-fields.js';

/** `pullRequest.gitlab`, as Argo CD's PullRequestGeneratorGitLab holds it. */
export interface GitlabPullRequestSpec {
  /** The numeric project id or its path with namespace (`group/sub/project`). */
  readonly project: string;
  /** '' for gitlab.com. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  /** Sent to GitLab, which keeps merge requests carrying all of them. */
  readonly labels: readonly string[];
  /** GitLab's `state` filter (`opened`, `closed`, `merged`, `locked`); '' asks for every state. */
  readonly pullRequestState: string;
  readonly insecure: boolean;
  readonly caRef: ConfigMapKeyRef | undefined;
}

const FIELDS = ['project', 'api', 'tokenRef', 'labels', 'pullRequestState', 'insecure', 'caRef'];
const PUBLIC_API = 'https://gitlab.com/api/v4';
const PER_PAGE = 100;

/** The API base go-gitlab makes of a server URL: `api/v4/` appended unless the path already ends with it. */
export function gitlabApiBase(api: string): string {
  const url = new URL(api.endsWith('/') ? api : `${api}/`);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('api/v4/')) url.pathname += 'api/v4/';
  return url.href.replace(/\/$/, '');
}

/** GitLab's project reference in a path: go-gitlab's `PathEscape` (slashes and dots encoded too). */
const projectSegment = (project: string): string => goPathEscape(project).replaceAll('.', '%2E');

/** The page go-gitlab asks next: `X-Next-Page`, absent or empty on the last page. */
const followingPage = (page: ApiResponse): string | undefined => positiveInteger(page.headers['x-next-page'])?.toString();

function toPullRequest(mr: unknown): PullRequest {
  const labels = at(mr, 'labels');
  return {
    number: whole(mr, 'iid'),
    title: text(mr, 'title'),
    branch: text(mr, 'source_branch'),
    targetBranch: text(mr, 'target_branch'),
    headSha: text(mr, 'sha'),
    labels: Array.isArray(labels) ? labels.filter((label): label is string => typeof label === 'string') : [],
    author: text(mr, 'author', 'username'),
  };
}

/** The project's merge requests, 100 a page, narrowed by GitLab itself to `labels` and `pullRequestState`. */
async function listMergeRequests(client: ApiClient, spec: GitlabPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const path = `projects/${projectSegment(spec.project)}/merge_requests`;
  const labels = spec.labels.length > 0 ? spec.labels.join(',') : undefined;
  const state = spec.pullRequestState || undefined;
  const fetch = (page: string | undefined): Promise<ApiResponse> =>
    client.request(path, signal, { query: goQuery({ labels, page, per_page: PER_PAGE, state }) });
  const mergeRequests = await collectPages(
    () => fetch(undefined),
    fetch,
    followingPage,
    (page) => entries(page),
  );
  return mergeRequests.map(toPullRequest);
}

/** GitLab merge requests (`GET /projects/{id}/merge_requests`). */
export const gitlabPullRequests: PullRequestProvider<GitlabPullRequestSpec> = {
  name: 'gitlab',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      project: readString(spec['project'], `${field}.project`),
      api: readApiUrl(spec['api'], `${field}.api`),
      tokenRef: readSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      labels: readLabels(spec['labels'], `${field}.labels`),
      pullRequestState: readOptionalString(spec['pullRequestState'], `${field}.pullRequestState`),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
      caRef: readConfigMapRef(spec['caRef'], `${field}.caRef`),
    };
  },
  connection: (spec) => ({
    provider: 'gitlab',
    apiBase: spec.api ? gitlabApiBase(spec.api) : PUBLIC_API,
    customApiUrl: spec.api,
    auth: tokenPlan(spec.tokenRef, (token) => ({ kind: 'header', name: 'PRIVATE-TOKEN', value: token })),
    ...(spec.caRef ? { caRef: spec.caRef } : {}),
    insecure: spec.insecure,
  }),
  /** A path splits at its last `/` into namespace and name; a numeric id is the repo with no owner. */
  repository(spec) {
    const slash = spec.project.lastIndexOf('/');
    return slash < 0 ? { owner: '', repo: spec.project } : { owner: spec.project.slice(0, slash), repo: spec.project.slice(slash + 1) };
  },
  question: (spec) => JSON.stringify({ project: spec.project, labels: spec.labels, pullRequestState: spec.pullRequestState }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listMergeRequests(client, spec, signal), answeredNotFound) }),
};
