import type { ParamSet } from '../model/params.js';
import type { ResolvedGitSource } from './git-spec.js';
import { directoryPathParams, selectPaths, withoutHiddenDirectories, withPathParams } from './path-params.js';

/**
 * One param set per directory of the commit that an include glob matches and no exclude glob does
 * (Go `path.Match` globs, as Argo CD: `*` stays within one folder), in path order. Hidden directories
 * are not listed unless the controller runs with `--include-hidden-directories`, as Argo CD's repo-server.
 * Without the spec's `values`: the caller adds them (see git.ts).
 */
export async function generateFromDirectories({ spec, commit, ctx, options }: ResolvedGitSource): Promise<ParamSet[]> {
  const listed = await ctx.git.listDirectories(spec.repoURL, commit, ctx.signal);
  const all = options.includeHiddenDirectories ? listed : withoutHiddenDirectories(listed);
  const selected = selectPaths(all, spec.directories, true).sort();
  return selected.map((dir) => withPathParams(directoryPathParams(dir), spec.pathParamPrefix));
}
