import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { ConfigMapKeyRef, PullRequestProvider } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { at, entries, text, whole } from './answer.js';
import { bitbucketAuthPlan, readBitbucketCredentials, type BitbucketCredentials } from './bitbucket-auth.js';
import { answeredNotFound, listingOfRepository } from './errors.js';
import { goQuery } from './go-url.js';
import { readConfigMapRef, readProviderObject, readRequiredApiUrl } from './spec-fields.js';

/** `pullRequest.bitbucketServer`, as Argo CD's PullRequestGeneratorBitbucketServer holds it. */
export interface BitbucketServerPullRequestSpec extends BitbucketCredentials {
  /** The project key. */
  readonly project: string;
  /** The repository slug. */
  readonly repo: string;
  /** The REST API root (`https://bitbucket.example/rest`); required. */
  readonly api: string;
  readonly insecure: boolean;
  readonly caRef: ConfigMapKeyRef | undefined;
}

const FIELDS = ['project', 'repo', 'api', 'basicAuth', 'bearerToken', 'insecure', 'caRef'];
const PAGE_LIMIT = 100;
/** Argo CD adds these to authenticated requests so Bitbucket's XSRF check stays out of the way. */
const XSRF_HEADERS = { 'x-atlassian-token': 'no-check', 'x-requested-with': 'XMLHttpRequest' };

/** `nextPageStart` while `isLastPage` is false; a page without `isLastPage` is the last, as the SDK reads it. */
function followingStart(page: ApiResponse): string | undefined {
  const isLastPage = at(page.body, 'isLastPage');
  if (isLastPage !== false) return undefined;
  const start = at(page.body, 'nextPageStart');
  if (typeof start !== 'number' || !Number.isFinite(start)) {
    // Argo CD would ask for start 0 again and loop; stopping with an error says what is wrong.
    throw new ScmApiError(`${page.url} answered isLastPage false without a nextPageStart`, page.status);
  }
  return String(Math.trunc(start));
}

function toPullRequest(pull: unknown): PullRequest {
  return {
    number: whole(pull, 'id'),
    title: text(pull, 'title'),
    branch: text(pull, 'fromRef', 'displayId'),
    targetBranch: text(pull, 'toRef', 'displayId'),
    // Not in Bitbucket's documentation, but present in its answers; Argo CD reads it too.
    headSha: text(pull, 'fromRef', 'latestCommit'),
    // Bitbucket Server pull requests have no labels.
    labels: [],
    author: text(pull, 'author', 'user', 'name'),
  };
}

/** The open pull requests (Bitbucket's default state), 100 a page, following `nextPageStart`. */
async function listPulls(client: ApiClient, spec: BitbucketServerPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const path = `api/1.0/projects/${spec.project}/repos/${spec.repo}/pull-requests`;
  const headers = spec.basicAuth || spec.bearerToken ? XSRF_HEADERS : {};
  const fetch = (start: string | undefined): Promise<ApiResponse> => client.request(path, signal, { query: goQuery({ limit: PAGE_LIMIT, start }), headers });
  const pulls = await collectPages(
    () => fetch(undefined),
    fetch,
    followingStart,
    (page) => entries(page, 'values'),
  );
  return pulls.map(toPullRequest);
}

/** Bitbucket Server / Data Center pull requests (`GET {api}/api/1.0/projects/{project}/repos/{repo}/pull-requests`). */
export const bitbucketServerPullRequests: PullRequestProvider<BitbucketServerPullRequestSpec> = {
  name: 'bitbucketServer',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      project: readString(spec['project'], `${field}.project`),
      repo: readString(spec['repo'], `${field}.repo`),
      api: readRequiredApiUrl(spec['api'], `${field}.api`),
      ...readBitbucketCredentials(spec, field),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
      caRef: readConfigMapRef(spec['caRef'], `${field}.caRef`),
    };
  },
  connection: (spec) => ({
    provider: 'bitbucketServer',
    apiBase: spec.api,
    customApiUrl: spec.api,
    auth: bitbucketAuthPlan(spec),
    ...(spec.caRef ? { caRef: spec.caRef } : {}),
    insecure: spec.insecure,
  }),
  repository: (spec) => ({ owner: spec.project, repo: spec.repo }),
  question: (spec) => JSON.stringify({ project: spec.project, repo: spec.repo }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listPulls(client, spec, signal), answeredNotFound) }),
};
