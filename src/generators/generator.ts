import type { V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { GitReader } from '../git/git-reader.js';
import type { ParamSet } from '../model/params.js';
import type { ScmAccess } from '../scm/access.js';
import type { PluginAccess } from '../scm/plugin/access.js';
import type { DecisionResourceAccess } from './decision-resources.js';

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
  /**
   * The ApplicationSet's template style. Argo CD's generators behave differently per style in a few places
   * (fasttemplate list values must be strings; merge keys are flat names in fasttemplate, top-level keys in goTemplate).
   */
  goTemplate: boolean;
  /** SCM provider APIs, under this ApplicationSet's credential and address rules (pull request and SCM provider generators). */
  scm: ScmAccess;
  /** Plugin services, under this ApplicationSet's ConfigMap, Secret and address rules; absent where none may be called. */
  plugins?: PluginAccess;
  /**
   * Duck-typed resources and their ConfigMaps for the clusterDecisionResource generator, bound to this
   * ApplicationSet's namespace and tenancy rules; absent where none can be read (the generator then fails).
   */
  decisionResources?: DecisionResourceAccess;
  /** The ApplicationSet's name, which the plugin generator sends to the plugin as Argo CD does. */
  applicationSetName?: string;
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
