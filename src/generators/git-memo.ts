import type { ParamSet } from '../model/params.js';
import { WeightedLru, type LruLimits } from '../model/weighted-lru.js';
import type { GitGeneratorOptions, GitSpec } from './git-spec.js';

/** Default bounds of a {@link GitResultMemo}: the JSON size of the kept param sets, and how many results. */
export const DEFAULT_GIT_MEMO_LIMITS: LruLimits = Object.freeze({ maxWeight: 64 * 2 ** 20, maxEntries: 1024 });

/**
 * Everything a git generator's param sets (before `values`, which each ApplicationSet templates with its
 * own options) are a function of: the repository, the resolved commit, the spec's paths and prefix, the
 * template style (fasttemplate flattens file data) and the repo-server switches. Not the revision: two
 * revisions that resolve to one commit list the same tree.
 */
export interface GitResultInputs {
  readonly spec: GitSpec;
  readonly commit: string;
  readonly goTemplate: boolean;
  readonly options: GitGeneratorOptions;
}

/** The memo key of `inputs`; every field that changes the result is in it, nothing else. */
export function gitResultKey({ spec, commit, goTemplate, options }: GitResultInputs): string {
  return JSON.stringify([
    spec.repoURL,
    commit,
    spec.directories,
    spec.files,
    spec.pathParamPrefix,
    goTemplate,
    options.newFileGlobbing,
    options.includeHiddenDirectories,
  ]);
}

/**
 * A git generator's results kept in memory, so a reconcile on a commit it has seen lists no tree and
 * reads no file. It sits above revision resolving, which runs on every call with the caller's own
 * credentials and address rules: a result is only ever served for a commit the caller itself resolved.
 * Kept param sets are frozen, since every later caller gets the same objects.
 */
export class GitResultMemo {
  private readonly results: WeightedLru<readonly ParamSet[]>;

  constructor(limits: LruLimits = DEFAULT_GIT_MEMO_LIMITS) {
    this.results = new WeightedLru(limits);
  }

  /** The result for `inputs`, from memory or from `produce` (kept for next time; errors are not kept). */
  async get(inputs: GitResultInputs, produce: () => Promise<readonly ParamSet[]>): Promise<readonly ParamSet[]> {
    const key = gitResultKey(inputs);
    const kept = this.results.get(key);
    if (kept) return kept;
    const result = deepFreeze(await produce());
    // JSON length is a fair estimate of the heap the param sets take, and it is paid once per miss.
    this.results.set(key, result, key.length + JSON.stringify(result).length);
    return result;
  }

  /** Hits, misses and evictions so far (for benchmarks, tests and metrics). */
  get stats(): Readonly<{ hits: number; misses: number; evictions: number }> {
    return this.results.stats;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
