import { GitError } from '../git/git-error.js';
import { TerminalError } from '../model/action.js';
import type { ParamSet } from '../model/params.js';
import type { Generator } from './generator.js';
import { generateFromDirectories } from './git-directories.js';
import { generateFromFiles } from './git-files.js';
import { GitResultMemo } from './git-memo.js';
import { withTemplatedValues } from './generator-values.js';
import { DEFAULT_GIT_GENERATOR_OPTIONS, parseGitSpec, type GitGeneratorOptions } from './git-spec.js';
import { readObject, readOptionalSeconds } from './spec-reading.js';

/** Argo CD's default Git polling interval. */
export const DEFAULT_GIT_REQUEUE_SECONDS = 180;

/**
 * The git generator: `directories` yields one param set per matching folder, `files` one per
 * matching JSON/YAML file (or per element when the file holds a list). Every failure names the
 * repository, revision and path and is thrown: an empty result would delete Applications. The revision
 * is resolved on every call; what a resolved commit yields comes from `memo` when it was seen before.
 */
export function createGitGenerator(options: GitGeneratorOptions = DEFAULT_GIT_GENERATOR_OPTIONS, memo = new GitResultMemo()): Generator {
  return {
    name: 'git',
    async generate(raw, ctx): Promise<readonly ParamSet[]> {
      const spec = parseGitSpec(raw);
      let commit: string;
      try {
        // A poll every N seconds must see refs newer than N seconds, whatever the reader would reuse.
        commit = await ctx.git.resolveRevision(spec.repoURL, spec.revision, ctx.signal, { maxRefsAgeMs: pollIntervalMs(spec.requeueAfterSeconds) });
      } catch (error) {
        // A refusal (the tenant may not read this repository) is passed on as it is: it is the rule, not a Git failure.
        if (error instanceof GitError || error instanceof TerminalError) throw error;
        throw new GitError('unreachable', { repoURL: spec.repoURL, revision: spec.revision }, String(error));
      }
      ctx.log.debug({ repoURL: spec.repoURL, revision: spec.revision, commit }, 'git generator: revision resolved');
      const source = { spec, commit, ctx, options };
      const produce = () => (spec.directories.length > 0 ? generateFromDirectories(source) : generateFromFiles(source));
      const paramSets = await memo.get({ spec, commit, goTemplate: ctx.goTemplate, options }, produce);
      // Values are templated per ApplicationSet (its own template options), so never kept.
      return Object.keys(spec.values).length === 0 ? paramSets : paramSets.map((params) => withTemplatedValues(params, spec.values, ctx));
    },
    requeueAfterMs(raw) {
      const seconds = readOptionalSeconds(readObject(raw, 'git').requeueAfterSeconds, 'git.requeueAfterSeconds');
      return pollIntervalMs(seconds);
    },
  };
}

/** The git generator with Argo CD's default switches. */
export const gitGenerator: Generator = createGitGenerator();

/** How often a git generator is polled: its `requeueAfterSeconds`, or Argo CD's default. */
function pollIntervalMs(requeueAfterSeconds: number | undefined): number {
  return (requeueAfterSeconds ?? DEFAULT_GIT_REQUEUE_SECONDS) * 1000;
}
