import type { RepositorySource, ScmRepository } from '../../scm/types.js';
import { compileGoRegexp } from '../go-regexp.js';
import { GeneratorSpecError, readArray, readObject, readOptionalString, readString } from '../spec-reading.js';

/**
 * One entry of `scmProvider.filters`: every condition it sets must hold. As in Argo CD, a filter that sets
 * a branch-level condition (`pathsExist`, `pathsDoNotExist`, `branchMatch`) is checked once per branch;
 * one that sets only repository-level ones (`repositoryMatch`, `labelMatch`) once per repository.
 */
export interface RepositoryFilter {
  readonly repositoryMatch?: RegExp;
  readonly labelMatch?: RegExp;
  readonly branchMatch?: RegExp;
  readonly pathsExist: readonly string[];
  readonly pathsDoNotExist: readonly string[];
  /** `none`: a filter that sets no condition, which Argo CD ignores (it matches nothing and is in neither stage). */
  readonly stage: 'repository' | 'branch' | 'none';
}

const FIELDS = ['repositoryMatch', 'labelMatch', 'branchMatch', 'pathsExist', 'pathsDoNotExist'];

/** Reads `filters`; an unknown field or a pattern that does not compile names its place. */
export function readRepositoryFilters(raw: unknown, field: string): RepositoryFilter[] {
  return readArray(raw, field).map((entry, i) => {
    const at = `${field}[${i}]`;
    const body = readObject(entry, at);
    for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw new GeneratorSpecError(`${at}.${key}`, `unknown filter; known: ${FIELDS.join(', ')}`);
    // An empty pattern is valid Go and matches everything, as in Argo CD.
    const pattern = (key: string): RegExp | undefined =>
      body[key] === undefined || body[key] === null ? undefined : compileGoRegexp(readOptionalString(body[key], `${at}.${key}`), `${at}.${key}`);
    const paths = (key: string): string[] => readArray(body[key], `${at}.${key}`).map((p, j) => readString(p, `${at}.${key}[${j}]`).replace(/\/+$/, ''));
    const filter = {
      repositoryMatch: pattern('repositoryMatch'),
      labelMatch: pattern('labelMatch'),
      branchMatch: pattern('branchMatch'),
      pathsExist: paths('pathsExist'),
      pathsDoNotExist: paths('pathsDoNotExist'),
    };
    // Argo CD sets the stage from the last condition it reads in the order above; a branch condition wins.
    const present = (key: string): boolean => body[key] !== undefined && body[key] !== null;
    const branchLevel = present('pathsExist') || present('pathsDoNotExist') || filter.branchMatch !== undefined;
    const repositoryLevel = filter.repositoryMatch !== undefined || filter.labelMatch !== undefined;
    return { ...filter, stage: branchLevel ? 'branch' : repositoryLevel ? 'repository' : 'none' };
  });
}

async function matches(source: RepositorySource, repo: ScmRepository, filter: RepositoryFilter, signal: AbortSignal): Promise<boolean> {
  if (filter.repositoryMatch && !filter.repositoryMatch.test(repo.repository)) return false;
  if (filter.branchMatch && !filter.branchMatch.test(repo.branch)) return false;
  if (filter.labelMatch && !repo.labels.some((label) => filter.labelMatch?.test(label))) return false;
  for (const path of filter.pathsExist) if (!(await source.repoHasPath(repo, path, signal))) return false;
  for (const path of filter.pathsDoNotExist) if (await source.repoHasPath(repo, path, signal)) return false;
  return true;
}

async function anyMatches(source: RepositorySource, repo: ScmRepository, filters: readonly RepositoryFilter[], signal: AbortSignal): Promise<boolean> {
  for (const filter of filters) if (await matches(source, repo, filter, signal)) return true;
  return false;
}

/**
 * Argo CD's listing: the repositories, kept when any repository-level filter matches (all when there is
 * none), then each kept repository's branches, kept when any branch-level filter matches (all when none).
 */
export async function listFilteredRepositories(
  source: RepositorySource,
  filters: readonly RepositoryFilter[],
  cloneProtocol: string,
  signal: AbortSignal,
): Promise<ScmRepository[]> {
  const repoFilters = filters.filter((f) => f.stage === 'repository');
  const branchFilters = filters.filter((f) => f.stage === 'branch');
  const repos = await source.listRepos(cloneProtocol, signal);
  const keptRepos: ScmRepository[] = [];
  for (const repo of repos) if (repoFilters.length === 0 || (await anyMatches(source, repo, repoFilters, signal))) keptRepos.push(repo);
  const branches: ScmRepository[] = [];
  for (const repo of keptRepos) branches.push(...(await source.getBranches(repo, signal)));
  if (branchFilters.length === 0) return branches;
  const kept: ScmRepository[] = [];
  for (const branch of branches) if (await anyMatches(source, branch, branchFilters, signal)) kept.push(branch);
  return kept;
}
