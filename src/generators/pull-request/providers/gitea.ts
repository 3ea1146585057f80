import type { ApiClient, ApiResponse } from '../../../scm/http/api-client.js';
import { collectPages, nextLink } from '../../../scm/http/pagination.js';
import type { PullRequestProvider, SecretKeyRef } from '../../../scm/provider.js';
import type { PullRequest } from '../../../scm/types.js';
import { readBoolean, readString } from '../../spec-reading.js';
import { at, entries, hasAllLabels, labelNames, text, whole, orNil } from './answer.js';
import { tokenPlan } from './auth.js';
import { answeredNotFound, listingOfRepository } from './errors.js';
import { goPathEscape, goQuery, positiveInteger } from './go-url.js';
import { readLabels, readProviderObject, readRequiredApiUrl, readSecretRef } from './spec-fields.js';

/** `pullRequest.gitea`, as Argo CD's PullRequestGeneratorGitea holds it. */
export interface GiteaPullRequestSpec {
  readonly owner: string;
  readonly repo: string;
  /** The server's URL; Argo CD has no default for Gitea. */
  readonly api: string;
  readonly tokenRef: SecretKeyRef | undefined;
  readonly insecure: boolean;
  /** Pull requests must carry all of them. */
  readonly labels: readonly string[];
}

const FIELDS = ['owner', 'repo', 'api', 'tokenRef', 'insecure', 'labels'];

/** The Gitea SDK's API base: the server URL without its trailing slash, then `/api/v1`. */
export const giteaApiBase = (api: string): string => `${api.replace(/\/$/, '')}/api/v1`;

/** The next page number of Gitea's `Link` header; the host of the link is ignored, the configured one is asked. */
function followingPage(page: ApiResponse): string | undefined {
  const link = nextLink(page.headers);
  if (link === undefined) return undefined;
  try {
    return positiveInteger(new URL(link, page.url).searchParams.get('page'))?.toString();
  } catch {
    return undefined;
  }
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

/**
 * The open pull requests, in Gitea's own page size (the SDK's `limit=0`), then those carrying all of
 * `labels`. Argo CD stops after the first page (argo-cd#29635); every page is read here.
 */
async function listPulls(client: ApiClient, spec: GiteaPullRequestSpec, signal: AbortSignal): Promise<PullRequest[]> {
  const path = `repos/${goPathEscape(spec.owner)}/${goPathEscape(spec.repo)}/pulls`;
  const fetch = (page: string): Promise<ApiResponse> => client.request(path, signal, { query: goQuery({ limit: 0, page, state: 'open' }) });
  const pulls = await collectPages(
    () => fetch('1'),
    fetch,
    followingPage,
    (page) => entries(page),
  );
  return pulls.filter((pull) => hasAllLabels(spec.labels, labelNames(at(pull, 'labels')))).map(toPullRequest);
}

/** Gitea (and Forgejo) pull requests (`GET /api/v1/repos/{owner}/{repo}/pulls`). */
export const giteaPullRequests: PullRequestProvider<GiteaPullRequestSpec> = {
  name: 'gitea',
  readSpec(raw, field) {
    const spec = readProviderObject(raw, field, FIELDS);
    return {
      owner: readString(spec['owner'], `${field}.owner`),
      repo: readString(spec['repo'], `${field}.repo`),
      api: readRequiredApiUrl(spec['api'], `${field}.api`),
      tokenRef: readSecretRef(spec['tokenRef'], `${field}.tokenRef`),
      insecure: readBoolean(spec['insecure'], `${field}.insecure`),
      labels: readLabels(spec['labels'], `${field}.labels`),
    };
  },
  connection: (spec) => ({
    provider: 'gitea',
    apiBase: giteaApiBase(spec.api),
    customApiUrl: spec.api,
    auth: tokenPlan(spec.tokenRef, (token) => ({ kind: 'header', name: 'Authorization', value: `token ${token}` })),
    insecure: spec.insecure,
  }),
  repository: (spec) => ({ owner: spec.owner, repo: spec.repo }),
  question: (spec) => JSON.stringify({ owner: spec.owner, repo: spec.repo, labels: spec.labels }),
  source: (client, spec) => ({ list: (signal) => listingOfRepository(() => listPulls(client, spec, signal), answeredNotFound) }),
};
