import { organizationKey } from '../../model/scm-event.js';
import type { ParamSet } from '../../model/params.js';
import type { RepositoryProvider } from '../../scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../scm/types.js';
import type { Generator, GeneratorContext } from '../generator.js';
import { withTemplatedValues } from '../generator-values.js';
import { sanitizeName } from '../normalize.js';
import { askRemembered, askShared, EVENT_PROVIDER, pickProvider, scmRequeueMs } from '../scm-common.js';
import { GeneratorSpecError, readObject, readOptionalSeconds, readOptionalString, readStringMap } from '../spec-reading.js';
import { listFilteredRepositories, readRepositoryFilters, type RepositoryFilter } from './filters.js';

/** Fields of `scmProvider` besides the provider. `template` is read by the renderer. */
const COMMON_FIELDS = ['cloneProtocol', 'filters', 'requeueAfterSeconds', 'template', 'values'];

/** Argo CD providers this controller does not implement, with why. */
const REFUSED = { awsCodeCommit: 'AWS CodeCommit is not supported by this controller (it needs AWS request signing and IAM roles)' };

/** An `scmProvider` generator spec, read and checked. */
export interface ScmProviderSpec {
  readonly provider: RepositoryProvider;
  readonly providerSpec: unknown;
  readonly cloneProtocol: string;
  readonly filters: readonly RepositoryFilter[];
  readonly values: Readonly<Record<string, string>>;
  readonly requeueAfterSeconds: number | undefined;
}

/** Reads an `scmProvider` spec with one of `providers`; every problem names its field. */
export function readScmProviderSpec(raw: unknown, providers: readonly RepositoryProvider[]): ScmProviderSpec {
  const field = 'scmProvider';
  const body = readObject(raw, field);
  const name = pickProvider(
    body,
    providers.map((p) => p.name),
    COMMON_FIELDS,
    field,
    REFUSED,
  );
  const provider = providers.find((p) => p.name === name) as RepositoryProvider;
  const cloneProtocol = readOptionalString(body.cloneProtocol, `${field}.cloneProtocol`);
  if (!['', 'ssh', 'https'].includes(cloneProtocol)) throw new GeneratorSpecError(`${field}.cloneProtocol`, `must be ssh or https, not "${cloneProtocol}"`);
  return {
    provider,
    providerSpec: provider.readSpec(body[name], `${field}.${name}`),
    cloneProtocol,
    filters: readRepositoryFilters(body.filters, `${field}.filters`),
    values: readStringMap(body.values, `${field}.values`),
    requeueAfterSeconds: readOptionalSeconds(body.requeueAfterSeconds, `${field}.requeueAfterSeconds`),
  };
}

/** The webhook routing key of an `scmProvider` spec (`scm:<provider>:<organization>`), or undefined when the spec is unreadable. */
export function scmProviderEventKey(raw: unknown, providers: readonly RepositoryProvider[]): string | undefined {
  try {
    return eventKeyOf(readScmProviderSpec(raw, providers));
  } catch {
    return undefined;
  }
}

/** The webhook routing key of a read spec: `scm:<provider>:<organization>`. */
function eventKeyOf(spec: ScmProviderSpec): string {
  return organizationKey(EVENT_PROVIDER[spec.provider.name] ?? spec.provider.name, spec.provider.organization(spec.providerSpec));
}

/**
 * The SCM provider generator: one param set per repository (or branch) of an organisation on GitHub,
 * GitLab, Gitea, Bitbucket Server, Bitbucket Cloud or Azure DevOps, narrowed by `filters`, with Argo CD's
 * parameters. Every provider call is shared by the ApplicationSets asking it with the same credentials.
 */
export function createScmProviderGenerator(providers: readonly RepositoryProvider[]): Generator {
  return {
    name: 'scmProvider',
    generate: (raw, ctx) => Promise.resolve().then(() => generate(readScmProviderSpec(raw, providers), ctx)),
    requeueAfterMs: (raw) => scmRequeueMs({ kind: 'scmProvider', ...readScmProviderSpec(raw, providers) }),
  };
}

async function generate(spec: ScmProviderSpec, ctx: GeneratorContext): Promise<ParamSet[]> {
  const { provider, providerSpec } = spec;
  const connection = provider.connection(providerSpec);
  const client = await ctx.scm.connect(connection, ctx.signal);
  const eventKey = eventKeyOf(spec);
  const prefix = ['scmProvider', provider.name, client.baseUrl, client.credentialIdentity, provider.question(providerSpec)].join('\n');
  const source = sharedSource(provider.source(client, providerSpec), {
    ask: (question, load) => askShared(ctx.scm, `${prefix}\n${question}`, eventKey, ctx.signal, load),
    remember: (question, load) => askRemembered(ctx.scm, `${prefix}\n${question}`, ctx.signal, load),
  });
  const repos = await listFilteredRepositories(source, spec.filters, spec.cloneProtocol, ctx.signal);
  ctx.log.debug({ repositories: repos.length }, 'scm provider generator: listed repositories');
  return repos.map((repo) => withTemplatedValues(repositoryParams(repo), spec.values, ctx));
}

type Ask = <T>(question: string, load: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * The provider's calls, each asked as a shared question (same arguments, same answer). Whether a path
 * exists at a known commit cannot change, so where the provider asks at the commit that answer is
 * remembered for as long as it is asked: an unchanged organisation then costs no path checks at all (a
 * missing path's 404 has no ETag to revalidate). Asked at the branch, the answer could be a later commit's.
 */
function sharedSource(source: RepositorySource, answers: { ask: Ask; remember: Ask }): RepositorySource {
  const at = (repo: ScmRepository): string => `${repo.organization}/${repo.repository}@${repo.branch}#${repo.sha}`;
  return {
    listRepos: (cloneProtocol) => answers.ask(`repos ${cloneProtocol}`, (signal) => source.listRepos(cloneProtocol, signal)),
    getBranches: (repo) => answers.ask(`branches ${at(repo)} ${repo.url}`, (signal) => source.getBranches(repo, signal)),
    repoHasPath: (repo, path) =>
      (source.pathsAtCommit && repo.sha !== '' ? answers.remember : answers.ask)(`path ${at(repo)} ${path}`, (signal) =>
        source.repoHasPath(repo, path, signal),
      ),
  };
}

/** Argo CD's parameters of one repository branch (`labels` joined with commas, as Argo CD does). */
export function repositoryParams(repo: ScmRepository): ParamSet {
  const params: Record<string, string | number> = {
    organization: repo.organization,
    repository: repo.repository,
    url: repo.url,
    branch: repo.branch,
    branchNormalized: sanitizeName(repo.branch),
    sha: repo.sha,
    short_sha: repo.sha.slice(0, 8),
    short_sha_7: repo.sha.slice(0, 7),
    labels: repo.labels.join(','),
  };
  if (repo.repositoryId !== undefined) params['repository_id'] = repo.repositoryId;
  return params;
}
