import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages, nextLink } from '../../../scm/http/pagination.js';
import type { PullRequestProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readOptionalString, readString } from '../../spec-reading.js';
import { at, entries, hasAllLabels, labelNames, text, whole, orNil } from './answer.js';
import { bearer, tokenPlan } from './auth.js';
import { answeredNotFound, listingOfRepository } from './errors.js';
import { goQuery, positiveInteger } from './go-url.js';
import { readApiUrl, readLabels, readProviderObject, readSecretRef } from './spec-fields.js';

/** `pullRequest.github`, as Argo CD's PullRequestGeneratorGithub holds it. */
export interface GithubPullRequestSpec {
  readonly owner: string;
  readonly repo: string;
  /** '' for github.com. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  /** A GitHub App `repo-creds` Secret; wins over `tokenRef`. */
  readonly appSecretName: string;
  /** Pull requests must carry all of them. */
  readonly labels: readonly string[];
}

const FIELDS = ['owner', 'repo', 'api', 'tokenRef', 'appSecretName', 'labels'];
const PUBLIC_API = 'https://api.github.com';
/** What go-github sends with every request. */
const HEADERS = { accept: 'application/vnd.github.v3+json', 'x-github-api-version': '2022-11-28' };
const PER_PAGE = 100;

/**
 * The API base go-github's `WithEnterpriseURLs` makes of a GitHub Enterprise URL: `api/v3/` appended unless
 * the path already ends so or the host is an `api.` one. Exported for the GitHub App's enterprise base URL.
 */
export function githubApiBase(api: string): string {
  const url = new URL(api);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  if (!url.pathname.endsWith('/api/v3/') && !url.host.startsWith('api.') && !url.host.includes('.api.')) url.pathname += 'api/v3/';
  return url.href.replace(/\/$/, '');
}

/**
 * The next page number of a `Link: <…?page=N>; rel="next"` header. go-github takes only the number from the
 * link and asks its own base URL again, so a link naming another host never receives the credentials.
 */
function followingPage(page: ApiResponse): string | undefined {
  const link = nextLink(page.headers);
  if (link === undefined) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(link, page.url).searchParams;
  } catch {
    return undefined;
  }
  if (params.get('cursor')) return undefined;
  return positiveInteger(params.get('page') || params.get('since'))?.toString();
}

function toPullRequest(pull: unknown): PullRequest {
  return {
    number: whole(pull, 'number'),
    title: text(pull, 'title'),
    branch: text(pull, 'head', 'ref'),
    targetBranch: text(pull, 'base', 'ref'),
    headSha: text(pull, 'head', 'sha'),
    labels: orNil(labelNames(at(pull, 'labels'))),
    author: text(pull, 'user', 'login'),
  };
}

/** Every open pull request (GitHub's default state), 100 a page, then those carrying all of `labels`. */
async function listPulls(client: ApiClient, spec: GithubPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const path = `repos/${spec.owner}/${spec.repo}/pulls`;
  const fetch = (page: string | undefined): Promise<ApiResponse> =>
    client.request(path, signal, { query: goQuery({ page, per_page: PER_PAGE }), headers: HEADERS });
  const pulls = await collectPages(
    () => fetch(undefined),
    fetch,
    followingPage,
    (page) => entries(page),
  );
  return pulls.filter((pull) => hasAllLabels(spec.labels, labelNames(at(pull, 'labels')))).map(toPullRequest);
}

/** GitHub and GitHub Enterprise pull requests (`GET /repos/{owner}/{repo}/pulls`). */
export const githubPullRequests: PullRequestProvider<GithubPullRequestSpec> = {
  name: 'github',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      owner: readString(spec['owner'], `${field}.owner`),
      repo: readString(spec['repo'], `${field}.repo`),
      api: readApiUrl(spec['api'], `${field}.api`),
      tokenRef: readSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      appSecretName: readOptionalString(spec['appSecretName'], `${field}.appSecretName`),
      labels: readLabels(spec['labels'], `${field}.labels`),
    };
  },
  connection: (spec) => ({
    provider: 'github',
    apiBase: spec.api ? githubApiBase(spec.api) : PUBLIC_API,
    customApiUrl: spec.api,
    auth: spec.appSecretName ? { kind: 'githubApp', secretName: spec.appSecretName } : tokenPlan(spec.tokenRef, bearer),
    insecure: false,
  }),
  repository: (spec) => ({ owner: spec.owner, repo: spec.repo }),
  question: (spec) => JSON.stringify({ owner: spec.owner, repo: spec.repo, labels: spec.labels }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listPulls(client, spec, signal), answeredNotFound) }),
};
