// The git generator's spec and the source its listings read, apart from git.ts: the listings (git-directories.ts,
// git-files.ts) and the memo need these types, and git.ts needs the listings, so they cannot live there.
import { validateRepoURL, validateRevision } from '../git/input-validation.js';
import type { GeneratorContext } from './generator.js';
import { readPathPatterns, type PathPattern } from './path-params.js';
import { GeneratorSpecError, readObject, readOptionalSeconds, readOptionalString, readString, readStringMap } from './spec-reading.js';

/** A parsed `git` generator spec. */
export interface GitSpec {
  repoURL: string;
  /** Branch, tag, commit SHA or `HEAD` (the default). */
  revision: string;
  directories: PathPattern[];
  files: PathPattern[];
  pathParamPrefix: string;
  values: Readonly<Record<string, string>>;
  requeueAfterSeconds: number | undefined;
}

/** Argo CD's repo-server switches that change what the git generator lists. */
export interface GitGeneratorOptions {
  /** `--enable-new-git-file-globbing`: doublestar globs for `files` instead of `git ls-files` pathspecs. */
  readonly newFileGlobbing: boolean;
  /** `--include-hidden-directories`: list directories whose name starts with `.`. */
  readonly includeHiddenDirectories: boolean;
}

/** Argo CD's defaults: both switches off. */
export const DEFAULT_GIT_GENERATOR_OPTIONS: GitGeneratorOptions = Object.freeze({ newFileGlobbing: false, includeHiddenDirectories: false });

/** A resolved Git source: the spec plus the commit its revision pointed at for this run. */
export interface ResolvedGitSource {
  spec: GitSpec;
  commit: string;
  ctx: GeneratorContext;
  options: GitGeneratorOptions;
}

/** Reads and checks a `git` generator spec; hostile URLs, revisions and globs are refused here. */
export function parseGitSpec(raw: unknown): GitSpec {
  const body = readObject(raw, 'git');
  const repoURL = readString(body.repoURL, 'git.repoURL');
  const revision = readOptionalString(body.revision, 'git.revision') || 'HEAD';
  validateRepoURL(repoURL);
  validateRevision(repoURL, revision);
  const where = { repoURL, revision };
  const directories = readPathPatterns(body.directories, 'git.directories', where);
  const files = readPathPatterns(body.files, 'git.files', where);
  if (directories.length > 0 === files.length > 0) {
    throw new GeneratorSpecError('git', 'needs exactly one of "directories" or "files", with at least one path');
  }
  return {
    repoURL,
    revision,
    directories,
    files,
    pathParamPrefix: readOptionalString(body.pathParamPrefix, 'git.pathParamPrefix'),
    values: readStringMap(body.values, 'git.values'),
    requeueAfterSeconds: readOptionalSeconds(body.requeueAfterSeconds, 'git.requeueAfterSeconds'),
  };
}
