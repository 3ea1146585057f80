import type { ParamSet } from '../model/params.js';
import type { ResolvedGitSource } from './git.js';
import { directoryPathParams, selectPaths, withPathParams } from './path-params.js';
import { withTemplatedValues } from './generator-values.js';

/**
 * One param set per directory of the commit that an include glob matches and no exclude glob does
 * (Go `path.Match` globs, as Argo CD: `*` stays within one folder), in path order.
 */
export async function generateFromDirectories({ spec, commit, ctx }: ResolvedGitSource): Promise<ParamSet[]> {
  const all = await ctx.git.listDirectories(spec.repoURL, commit, ctx.signal);
  const selected = selectPaths(all, spec.directories, true).sort();
  return selected.map((dir) => withTemplatedValues(withPathParams(directoryPathParams(dir), spec.pathParamPrefix), spec.values, ctx));
}
