import type { ParamSet } from '../model/params.js';
import type { ResolvedGitSource } from './git-spec.js';
import { parseParamsFile } from './file-content.js';
import { filePathParams, selectFiles, withPathParams } from './path-params.js';
import { fileParamsAsFasttemplate } from './fasttemplate-params.js';
import { mapBounded } from '../model/map-bounded.js';

/** Files read at the same time; bounded so a huge match cannot spawn hundreds of git processes. */
const READ_CONCURRENCY = 8;

/**
 * One param set per matching JSON/YAML file (per element when it holds a list), in path order (matched as
 * {@link selectFiles} says):
 * the file's keys as nested params, then `path.*` of its folder plus `path.filename` and
 * `path.filenameNormalized` (path params win over a key of the same name, as in Argo CD). Without the
 * spec's `values`: the caller adds them (see git.ts).
 */
export async function generateFromFiles({ spec, commit, ctx, options }: ResolvedGitSource): Promise<ParamSet[]> {
  const all = await ctx.git.listFiles(spec.repoURL, commit, ctx.signal);
  const selected = selectFiles(all, spec.files, options.newFileGlobbing).sort();
  const perFile = await mapBounded(selected, READ_CONCURRENCY, async (path) => {
    const content = await ctx.git.readFile(spec.repoURL, commit, path, ctx.signal);
    const where = { repoURL: spec.repoURL, revision: `${spec.revision} (${commit})`, path };
    const pathParams = withPathParams(filePathParams(path), spec.pathParamPrefix);
    // With fasttemplate Argo CD flattens the file's data first and prints every value as text.
    const asParams = ctx.goTemplate ? (fromFile: ParamSet) => fromFile : fileParamsAsFasttemplate;
    return parseParamsFile(content, where).map((fromFile): ParamSet => ({ ...asParams(fromFile), ...pathParams }));
  });
  return perFile.flat();
}
