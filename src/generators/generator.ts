import type { Logger } from 'pino';

/**
 * One parameter set produced by a generator: a nested object, so `path.basename` is
 * `params.path.basename`. There are never flat and nested duplicates of the same value.
 */
export type ParamSet = { readonly [key: string]: ParamValue };

/** A value inside a {@link ParamSet}. */
export type ParamValue = string | number | boolean | null | readonly ParamValue[] | ParamSet;

/** Reads a Git repository at a revision; implemented by the repository cache in `src/git/`. */
export interface GitReader {
  /** The commit SHA that `revision` (branch, tag, SHA or HEAD) resolves to. */
  resolveRevision(repoURL: string, revision: string, signal: AbortSignal): Promise<string>;
  /** Every directory path of the tree at `commit`, relative to the repository root. */
  listDirectories(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** Every file path of the tree at `commit`, relative to the repository root. */
  listFiles(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** The content of one file at `commit`. */
  readFile(repoURL: string, commit: string, path: string, signal: AbortSignal): Promise<Buffer>;
}

/** What a generator may use while it runs; nothing else reaches it. */
export interface GeneratorContext {
  /** Aborted when the reconcile is cancelled or times out; every I/O call must honour it. */
  signal: AbortSignal;
  /** Logger already bound to the ApplicationSet key. */
  log: Logger;
  git: GitReader;
  /** Argo CD cluster Secrets visible to this ApplicationSet (already filtered by tenancy). */
  clusterSecrets(): readonly ClusterSecret[];
}

/** The fields of an Argo CD cluster Secret that generators read. */
export interface ClusterSecret {
  name: string;
  server: string;
  project?: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
}

/** A generator kind (list, clusters, git, matrix, merge): turns its spec into parameter sets. */
export interface Generator<Spec = unknown> {
  /** The key of this generator in an ApplicationSet's `spec.generators[]` entry. */
  readonly name: string;
  generate(spec: Spec, ctx: GeneratorContext): Promise<readonly ParamSet[]>;
  /** How long until this generator's output may change without a watch event; undefined = never. */
  requeueAfterMs?(spec: Spec): number | undefined;
}
