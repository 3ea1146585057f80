import type { PullRequest } from '../../scm/types.js';
import { compileGoRegexp } from '../go-regexp.js';
import { GeneratorSpecError, readArray, readObject } from '../spec-reading.js';

/** One entry of `pullRequest.filters`: every pattern it sets must match. */
export interface PullRequestFilter {
  readonly branchMatch?: RegExp;
  readonly targetBranchMatch?: RegExp;
  readonly titleMatch?: RegExp;
}

const FIELDS = ['branchMatch', 'targetBranchMatch', 'titleMatch'] as const;

/** Reads `filters`; an unknown field or a pattern that does not compile names its place. */
export function readPullRequestFilters(raw: unknown, field: string): PullRequestFilter[] {
  return readArray(raw, field).map((entry, i) => {
    const at = `${field}[${i}]`;
    const body = readObject(entry, at);
    const filter: Record<string, RegExp> = {};
    for (const [key, value] of Object.entries(body)) {
      if (!(FIELDS as readonly string[]).includes(key)) throw new GeneratorSpecError(`${at}.${key}`, `unknown filter; known: ${FIELDS.join(', ')}`);
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') throw new GeneratorSpecError(`${at}.${key}`, 'must be a regular expression (a string)');
      filter[key] = compileGoRegexp(value, `${at}.${key}`);
    }
    return filter;
  });
}

/** As Argo CD: no filters keep everything; otherwise a pull request stays when any one filter matches it. */
export function filterPullRequests(pulls: readonly PullRequest[], filters: readonly PullRequestFilter[]): PullRequest[] {
  if (filters.length === 0) return [...pulls];
  return pulls.filter((pull) =>
    filters.some(
      (f) =>
        (!f.branchMatch || f.branchMatch.test(pull.branch)) &&
        (!f.targetBranchMatch || f.targetBranchMatch.test(pull.targetBranch)) &&
        (!f.titleMatch || f.titleMatch.test(pull.title)),
    ),
  );
}
