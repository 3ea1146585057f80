import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import type { ScmApiError } from '../../../scm/http/errors.js';
import { collectPages } from '../../../scm/http/pagination.js';
import type { PullRequestProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readString } from '../../spec-reading.js';
import { at, entries, hasAllLabels, labelNames, text, whole } from './answer.js';
import { tokenPlan } from './auth.js';
import { listingOfRepository } from './errors.js';
import { goPathEscape, goQuery } from './go-url.js';
import { readApiUrl, readLabels, readProviderObject, readSecretRef } from './spec-fields.js';

/** `pullRequest.azuredevops`, as Argo CD's PullRequestGeneratorAzureDevOps holds it. */
export interface AzureDevOpsPullRequestSpec {
  readonly organization: string;
  readonly project: string;
  /** The repository name; pull requests of the project's other repositories are dropped. */
  readonly repo: string;
  /** '' for dev.azure.com. */
  readonly api: string;
  /** A personal access token. */
  readonly tokenRef: SecretKeyRef | undefined;
  /** Pull requests must carry all of them. */
  readonly labels: readonly string[];
}

const FIELDS = ['organization', 'project', 'repo', 'api', 'tokenRef', 'labels'];
const PUBLIC_API = 'https://dev.azure.com';
/** The version the Azure DevOps Go SDK asks for, in the `Accept` header as it sends it. */
const HEADERS = { accept: 'application/json;api-version=7.1-preview.1', 'x-tfs-fedauthredirect': 'Suppress' };
const PAGE_SIZE = 100;
/** What Azure DevOps says of a missing project; Argo CD's only "repository not found" case here. */
const PROJECT_NOT_FOUND = 'The following project does not exist';

/** The organization URL as the SDK normalises it: `{api}/{organization}`, lower case, no trailing slash. */
export function azureDevOpsApiBase(api: string, organization: string): string {
  const root = api || PUBLIC_API;
  return `${root}${root.endsWith('/') ? '' : '/'}${organization}`.toLowerCase().replace(/\/+$/, '');
}

const projectNotFound = (error: ScmApiError): boolean => [error.providerMessage, error.message].some((m) => m?.includes(PROJECT_NOT_FOUND));

/** Argo CD skips pull requests lacking any of these rather than failing. */
function isComplete(pr: unknown): boolean {
  const present = (value: unknown): boolean => value !== undefined && value !== null;
  const fields = [at(pr, 'repository', 'name'), at(pr, 'pullRequestId'), at(pr, 'sourceRefName'), at(pr, 'targetRefName')];
  return fields.every(present) && present(at(pr, 'lastMergeSourceCommit', 'commitId'));
}

function toPullRequest(pr: unknown): PullRequest {
  return {
    number: whole(pr, 'pullRequestId'),
    title: text(pr, 'title'),
    // The first `refs/heads/` anywhere in the name goes, as Go's strings.Replace(…, 1) does.
    branch: text(pr, 'sourceRefName').replace('refs/heads/', ''),
    targetBranch: text(pr, 'targetRefName').replace('refs/heads/', ''),
    headSha: text(pr, 'lastMergeSourceCommit', 'commitId'),
    labels: labelNames(at(pr, 'labels')),
    // The part of the e-mail address before the `@`.
    author: text(pr, 'createdBy', 'uniqueName').split('@')[0] ?? '',
  };
}

/**
 * The project's active pull requests (the API's default), kept for `repo` and `labels`. Argo CD reads only
 * the API's first page (at most 101, argo-cd#29179); `$top`/`$skip` pages are read here until a short one.
 */
async function listPulls(client: ApiClient, spec: AzureDevOpsPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const path = `${goPathEscape(spec.project)}/_apis/git/pullrequests`;
  const fetch = (skip: string | undefined): Promise<ApiResponse> =>
    client.request(path, signal, { query: goQuery({ $skip: skip, $top: PAGE_SIZE }), headers: HEADERS });
  let read = 0;
  const following = (page: ApiResponse): string | undefined => {
    const count = entries(page, 'value').length;
    read += count;
    return count < PAGE_SIZE ? undefined : String(read);
  };
  const pulls = await collectPages(
    () => fetch(undefined),
    fetch,
    following,
    (page) => entries(page, 'value'),
  );
  return pulls
    .filter((pr) => isComplete(pr) && hasAllLabels(spec.labels, labelNames(at(pr, 'labels'))) && text(pr, 'repository', 'name') === spec.repo)
    .map(toPullRequest);
}

/** Azure DevOps (Services and Server) pull requests (`GET /{organization}/{project}/_apis/git/pullrequests`). */
export const azureDevOpsPullRequests: PullRequestProvider<AzureDevOpsPullRequestSpec> = {
  name: 'azuredevops',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      organization: readString(spec['organization'], `${field}.organization`),
      project: readString(spec['project'], `${field}.project`),
      repo: readString(spec['repo'], `${field}.repo`),
      api: readApiUrl(spec['api'], `${field}.api`),
      tokenRef: readSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      labels: readLabels(spec['labels'], `${field}.labels`),
    };
  },
  connection: (spec) => ({
    provider: 'azuredevops',
    apiBase: azureDevOpsApiBase(spec.api, spec.organization),
    customApiUrl: spec.api,
    auth: tokenPlan(spec.tokenRef, (token) => ({ kind: 'basic', username: '', password: token })),
    insecure: false,
  }),
  /** The project and repository, which is what Argo CD's webhook handler compares. */
  repository: (spec) => ({ owner: spec.project, repo: spec.repo }),
  question: (spec) => JSON.stringify({ organization: spec.organization, project: spec.project, repo: spec.repo, labels: spec.labels }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listPulls(client, spec, signal), projectNotFound) }),
};
