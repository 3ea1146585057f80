import { isNilSlice, nilSlice } from '../../templating/plain-values.js';
import { pullRequestKey } from '../../model/scm-event.js';
import type { ParamSet } from '../../model/params.js';
import { goTypedValue } from '../go-typed.js';
import type { PullRequestProvider } from '../../scm/provider.js';
import type { PullRequest } from '../../scm/types.js';
import type { Generator, GeneratorContext } from '../generator.js';
import { withTemplatedValues } from '../generator-values.js';
import { askShared, EVENT_PROVIDER, pickProvider, scmRequeueMs } from '../scm-common.js';
import { branchSlug } from '../slug.js';
import { readBoolean, readObject, readOptionalSeconds, readStringMap } from '../spec-reading.js';
import { filterPullRequests, readPullRequestFilters, type PullRequestFilter } from './filters.js';
import { RepositoryNotFoundError } from './providers/errors.js';

/** Fields of `pullRequest` besides the provider. `template` is read by the renderer. */
const COMMON_FIELDS = ['filters', 'requeueAfterSeconds', 'template', 'values', 'continueOnRepoNotFoundError'];

/** A `pullRequest` generator spec, read and checked. */
export interface PullRequestSpec {
  readonly provider: PullRequestProvider;
  readonly providerSpec: unknown;
  readonly filters: readonly PullRequestFilter[];
  readonly values: Readonly<Record<string, string>>;
  readonly requeueAfterSeconds: number | undefined;
  readonly continueOnRepoNotFoundError: boolean;
}

/** Reads a `pullRequest` spec with one of `providers`; every problem names its field. */
export function readPullRequestSpec(raw: unknown, providers: readonly PullRequestProvider[]): PullRequestSpec {
  const field = 'pullRequest';
  const body = readObject(raw, field);
  const name = pickProvider(
    body,
    providers.map((p) => p.name),
    COMMON_FIELDS,
    field,
  );
  const provider = providers.find((p) => p.name === name) as PullRequestProvider;
  return {
    provider,
    providerSpec: provider.readSpec(body[name], `${field}.${name}`),
    filters: readPullRequestFilters(body.filters, `${field}.filters`),
    values: readStringMap(body.values, `${field}.values`),
    requeueAfterSeconds: readOptionalSeconds(body.requeueAfterSeconds, `${field}.requeueAfterSeconds`),
    continueOnRepoNotFoundError: readBoolean(body.continueOnRepoNotFoundError, `${field}.continueOnRepoNotFoundError`),
  };
}

/** The webhook routing key of a `pullRequest` spec (`pr:<provider>:<owner>/<repo>`), or undefined when the spec is unreadable. */
export function pullRequestEventKey(raw: unknown, providers: readonly PullRequestProvider[]): string | undefined {
  try {
    return eventKeyOf(readPullRequestSpec(raw, providers));
  } catch {
    return undefined;
  }
}

/** The webhook routing key of a read spec: `pr:<provider>:<owner>/<repo>`. */
function eventKeyOf(spec: PullRequestSpec): string {
  const { owner, repo } = spec.provider.repository(spec.providerSpec);
  return pullRequestKey(EVENT_PROVIDER[spec.provider.name] ?? spec.provider.name, owner, repo);
}

/**
 * The pull request generator: one param set per open pull request of a repository on GitHub, GitLab,
 * Gitea, Bitbucket Server, Bitbucket Cloud or Azure DevOps, narrowed by `filters`, with Argo CD's
 * parameters. ApplicationSets asking the same question with the same credentials share one listing.
 */
export function createPullRequestGenerator(providers: readonly PullRequestProvider[]): Generator {
  return {
    name: 'pullRequest',
    generate: (raw, ctx) => Promise.resolve().then(() => generate(readPullRequestSpec(raw, providers), ctx)),
    requeueAfterMs: (raw) => scmRequeueMs({ kind: 'pullRequest', ...readPullRequestSpec(raw, providers) }),
  };
}

async function generate(spec: PullRequestSpec, ctx: GeneratorContext): Promise<ParamSet[]> {
  const { provider, providerSpec } = spec;
  const connection = provider.connection(providerSpec);
  const client = await ctx.scm.connect(connection, ctx.signal);
  const { owner, repo } = provider.repository(providerSpec);
  const eventKey = eventKeyOf(spec);
  const question = ['pullRequest', provider.name, client.baseUrl, client.credentialIdentity, provider.question(providerSpec)].join('\n');
  let pulls: PullRequest[];
  try {
    pulls = await askShared(ctx.scm, question, eventKey, ctx.signal, (signal) => provider.source(client, providerSpec).list(signal));
  } catch (error) {
    if (error instanceof RepositoryNotFoundError && spec.continueOnRepoNotFoundError) {
      ctx.log.warn({ owner, repo, provider: provider.name }, 'pull request generator: repository not found; continuing with no pull requests');
      return [];
    }
    throw error;
  }
  const kept = filterPullRequests(pulls, spec.filters);
  ctx.log.debug({ listed: pulls.length, kept: kept.length }, 'pull request generator: listed pull requests');
  return kept.map((pull) => withTemplatedValues(pullRequestParams(pull, ctx.goTemplate), spec.values, ctx));
}

/** Argo CD's parameters of one pull request; `labels`, a list, only with goTemplate, as in Argo CD. */
export function pullRequestParams(pull: PullRequest, goTemplate = true): ParamSet {
  const params: ParamSet = {
    number: String(pull.number),
    title: pull.title,
    branch: pull.branch,
    branch_slug: branchSlug(pull.branch),
    target_branch: pull.targetBranch,
    target_branch_slug: branchSlug(pull.targetBranch),
    head_sha: pull.headSha,
    head_short_sha: pull.headSha.slice(0, 8),
    head_short_sha_7: pull.headSha.slice(0, 7),
    author: pull.author,
  };
  // A nil list stays nil (see orNil): Argo CD prints it as null.
  const labels = isNilSlice(pull.labels) ? nilSlice<string>() : [...pull.labels];
  return goTemplate ? { ...params, labels: goTypedValue(labels) } : params;
}
