import { nilSlice } from '../../../templating/plain-values.js';
import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { PullRequestProvider } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readString } from '../../spec-reading.js';
import { entries, text, whole } from './answer.js';
import { bitbucketAuthPlan, readBitbucketCredentials, type BitbucketCredentials } from './bitbucket-auth.js';
import { answeredNotFound, listingOfRepository } from './errors.js';
import { readApiUrl, readProviderObject } from './spec-fields.js';

/** `pullRequest.bitbucket`, as Argo CD's PullRequestGeneratorBitbucket holds it. */
export interface BitbucketCloudPullRequestSpec extends BitbucketCredentials {
  /** The workspace. */
  readonly owner: string;
  /** The repository slug. */
  readonly repo: string;
  /** '' for api.bitbucket.org. */
  readonly api: string;
}

const FIELDS = ['owner', 'repo', 'api', 'basicAuth', 'bearerToken'];
const PUBLIC_API = 'https://api.bitbucket.org/2.0';

/** The API base go-bitbucket keeps of a URL: scheme, host and path. */
export function bitbucketCloudApiBase(api: string): string {
  const url = new URL(api || PUBLIC_API);
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}

/** The `next` URL of a page; the client refuses it when it names another origin than the API's. */
function followingPage(page: ApiResponse): string | undefined {
  const next = text(page.body, 'next');
  return next === '' ? undefined : next;
}

function toPullRequest(pull: unknown): PullRequest {
  return {
    number: whole(pull, 'id'),
    title: text(pull, 'title'),
    branch: text(pull, 'source', 'branch', 'name'),
    targetBranch: text(pull, 'destination', 'branch', 'name'),
    headSha: text(pull, 'source', 'commit', 'hash'),
    // Bitbucket Cloud pull requests have no labels; Argo CD leaves its list nil (`toJson` gives null).
    labels: nilSlice(),
    author: text(pull, 'author', 'nickname'),
  };
}

/** The open pull requests (Bitbucket's default state) in its default page length, following `next` to the end. */
async function listPulls(client: ApiClient, spec: BitbucketCloudPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const first = `repositories/${spec.owner}/${spec.repo}/pullrequests/`;
  const fetch = (url: string): Promise<ApiResponse> => client.request(url, signal);
  const pulls = await collectPages(
    () => fetch(first),
    fetch,
    followingPage,
    (page) => entries(page, 'values'),
  );
  return pulls.map(toPullRequest);
}

/** Bitbucket Cloud pull requests (`GET /2.0/repositories/{workspace}/{repo}/pullrequests/`). */
export const bitbucketCloudPullRequests: PullRequestProvider<BitbucketCloudPullRequestSpec> = {
  name: 'bitbucket',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      owner: readString(spec['owner'], `${field}.owner`),
      repo: readString(spec['repo'], `${field}.repo`),
      api: readApiUrl(spec['api'], `${field}.api`),
      ...readBitbucketCredentials(spec, field),
    };
  },
  connection: (spec) => ({
    provider: 'bitbucket',
    apiBase: bitbucketCloudApiBase(spec.api),
    customApiUrl: spec.api,
    auth: bitbucketAuthPlan(spec),
    insecure: false,
  }),
  repository: (spec) => ({ owner: spec.owner, repo: spec.repo }),
  question: (spec) => JSON.stringify({ owner: spec.owner, repo: spec.repo }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listPulls(client, spec, signal), answeredNotFound) }),
};
