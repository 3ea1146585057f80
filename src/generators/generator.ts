import type { V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';

/**
 * One parameter set produced by a generator: a nested object, so `path.basename` is
 * `params.path.basename`. There are never flat and nested duplicates of the same value.
 *
 * The shapes follow Argo CD's Go-template (`goTemplate: true`) parameters, which are nested too.
 * Fasttemplate names map onto them as follows (the renderer's compatibility layer does this):
 * `{{path}}` is `path.path`, `{{path[n]}}` is `path.segments[n]`, and with `pathParamPrefix: p`
 * `{{p.path}}` is `p.path.path`. Every other dotted name is the nested path itself
 * (`{{metadata.labels.env}}` is `metadata.labels.env`).
 */
export type ParamSet = { readonly [key: string]: ParamValue };

/** A value inside a {@link ParamSet}. */
export type ParamValue = string | number | boolean | null | readonly ParamValue[] | ParamSet;

/** How a caller of {@link GitReader.resolveRevision} bounds the age of the remote's refs it resolves against. */
export interface ResolveOptions {
  /**
   * Refs read at most this long ago are good enough (the reader may use fewer, never more); absent:
   * the reader's own bound. 0 asks for the remote as it is now (an explicit refresh).
   */
  readonly maxRefsAgeMs?: number;
}

/** Reads a Git repository at a revision; implemented by the repository cache in `src/git/`. */
export interface GitReader {
  /** The commit SHA that `revision` (branch, tag, SHA or HEAD) resolves to. */
  resolveRevision(repoURL: string, revision: string, signal: AbortSignal, options?: ResolveOptions): Promise<string>;
  /** Every directory path of the tree at `commit`, relative to the repository root. */
  listDirectories(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** Every file path of the tree at `commit`, relative to the repository root. */
  listFiles(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** The content of one file at `commit`. */
  readFile(repoURL: string, commit: string, path: string, signal: AbortSignal): Promise<Buffer>;
}

/** Options of one {@link Interpolate} call. */
export interface InterpolateOptions {
  /**
   * Leave references to params that `params` does not hold verbatim instead of failing. Argo CD
   * does this for `values` and for a matrix's second child, whose own fields may refer to params
   * it produces itself (`{{name}}` in a clusters `values`), not to the first child's.
   */
  allowUnresolved: boolean;
}

/**
 * Replaces the `{{…}}` references in one string with values from `params`. Production wiring passes
 * the Handlebars renderer of `src/templating/` (with the ApplicationSet's goTemplate options);
 * tests pass a small fasttemplate-style function. Used for `values` and for a matrix's second
 * child, whose fields may name the first child's params. Throws, naming the reference, when a
 * reference cannot be resolved and `allowUnresolved` is false.
 */
export type Interpolate = (template: string, params: ParamSet, options: InterpolateOptions) => string;

/** What a generator may use while it runs; nothing else reaches it. */
export interface GeneratorContext {
  /** Aborted when the reconcile is cancelled or times out; every I/O call must honour it. */
  signal: AbortSignal;
  /** Logger already bound to the ApplicationSet key. */
  log: Logger;
  git: GitReader;
  /**
   * Secrets visible to this ApplicationSet (already filtered by tenancy), typically from the
   * informer store; the clusters generator keeps those labelled as Argo CD cluster Secrets.
   */
  clusterSecrets(): readonly V1Secret[];
  interpolate: Interpolate;
}

/** A generator kind (list, clusters, git, matrix, merge): turns its spec into parameter sets. */
export interface Generator<Spec = unknown> {
  /** The key of this generator in an ApplicationSet's `spec.generators[]` entry. */
  readonly name: string;
  generate(spec: Spec, ctx: GeneratorContext): Promise<readonly ParamSet[]>;
  /** How long until this generator's output may change without a watch event; undefined = never. */
  requeueAfterMs?(spec: Spec): number | undefined;
}
