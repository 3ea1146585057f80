import { posix } from 'node:path';
import { Minimatch } from 'minimatch';
import { validateRepoPath } from '../git/input-validation.js';
import type { ParamSet, ParamValue } from '../model/params.js';
import { gitPathspecMatcher } from './git-pathspec.js';
import { sanitizeName } from './normalize.js';
import { goTypedValue } from './go-typed.js';
import { readArray, readBoolean, readObject, readString } from './spec-reading.js';

/** One `directories[]` or `files[]` item: a glob and whether it excludes. */
export interface PathPattern {
  path: string;
  exclude: boolean;
}

/** Reads `directories` / `files` items, refusing hostile globs (absolute, `..`, leading `-`). */
export function readPathPatterns(value: unknown, field: string, where: { repoURL: string; revision: string }): PathPattern[] {
  return readArray(value, field).map((raw, i) => {
    const item = readObject(raw, `${field}[${i}]`);
    const path = readString(item.path, `${field}[${i}].path`);
    validateRepoPath(where.repoURL, where.revision, path);
    return { path, exclude: readBoolean(item.exclude, `${field}[${i}].exclude`) };
  });
}

/**
 * Keeps the paths matched by an include pattern and by no exclude pattern (exclude wins, whatever
 * the order). `segmentGlobs` gives Go `path.Match` semantics (`*` never crosses `/`, no `**`, no
 * braces) as Argo CD uses for directories; otherwise `**` spans folders, as for files.
 */
export function selectPaths(paths: readonly string[], patterns: readonly PathPattern[], segmentGlobs: boolean): string[] {
  const options = { dot: true, noglobstar: segmentGlobs, nobrace: segmentGlobs, nocomment: true, nonegate: true };
  // Go's path.Match negates a class with `^` only: `[!g]` is the class of `!` and `g`.
  const glob = (path: string): string => (segmentGlobs ? path.replaceAll('[!', '[\\!') : path);
  const includes = patterns.filter((p) => !p.exclude).map((p) => new Minimatch(glob(p.path), options));
  const excludes = patterns.filter((p) => p.exclude).map((p) => new Minimatch(glob(p.path), options));
  return paths.filter((path) => includes.some((m) => m.match(path)) && !excludes.some((m) => m.match(path)));
}

/**
 * The files a `files` generator reads: with Argo CD's default, `git ls-files` pathspecs ({@link gitPathspecMatcher}:
 * `*` crosses `/`); with `--enable-new-git-file-globbing`, doublestar globs (`*` within a folder, `**` across).
 * Exclude patterns follow the same rules and win, as in Argo CD.
 */
export function selectFiles(paths: readonly string[], patterns: readonly PathPattern[], newGlobbing: boolean): string[] {
  if (newGlobbing) return selectPaths(paths, patterns, false);
  const includes = patterns.filter((p) => !p.exclude).map((p) => gitPathspecMatcher(p.path));
  const excludes = patterns.filter((p) => p.exclude).map((p) => gitPathspecMatcher(p.path));
  return paths.filter((path) => includes.some((m) => m(path)) && !excludes.some((m) => m(path)));
}

/**
 * Leaves out hidden directories (a segment starting with `.`) and everything below them, as Argo CD's
 * repo-server does unless it runs with `--include-hidden-directories`.
 */
export function withoutHiddenDirectories(dirs: readonly string[]): string[] {
  return dirs.filter((dir) => !dir.split('/').some((segment) => segment.startsWith('.')));
}

/** Argo CD's path params of a directory: `path`, `basename`, `basenameNormalized`, `segments`. */
export function directoryPathParams(dir: string): Record<string, ParamValue> {
  const basename = posix.basename(dir);
  return { path: dir, basename, basenameNormalized: sanitizeName(basename), segments: goTypedValue(dir.split('/')) };
}

/** Path params of a file: those of its folder plus `filename` and `filenameNormalized`. */
export function filePathParams(file: string): Record<string, ParamValue> {
  const filename = posix.basename(file);
  return { ...directoryPathParams(posix.dirname(file)), filename, filenameNormalized: sanitizeName(filename) };
}

/**
 * Places path params under `path`, or under `<prefix>.path` when `pathParamPrefix` is set (a dotted
 * prefix nests, so `a.b` gives `a.b.path.basename`, the name fasttemplate users write).
 */
export function withPathParams(pathParams: Record<string, ParamValue>, prefix: string): ParamSet {
  let nested: ParamSet = { path: pathParams };
  for (const key of prefix.split('.').filter(Boolean).reverse()) nested = { [key]: nested };
  return nested;
}
