import type { ParamSet } from './params.js';

/** The parts of an ApplicationSet and its Applications that rendering reads and writes. */

/** `spec.template` / a generator's `template`: Application metadata and spec, with template strings. */
export interface ApplicationTemplate {
  metadata?: Record<string, unknown>;
  spec?: Record<string, unknown>;
}

/** The ApplicationSet fields the renderer reads. */
export interface ApplicationSetForRender {
  metadata: { name: string; namespace: string; annotations?: Readonly<Record<string, string>> };
  spec: {
    goTemplate?: boolean;
    goTemplateOptions?: readonly string[];
    template: ApplicationTemplate;
    templatePatch?: string;
    syncPolicy?: { preserveResourcesOnDeletion?: boolean };
    generators: readonly Readonly<Record<string, unknown>>[];
  };
}

/** The parameter sets one entry of `spec.generators` produced. */
export interface GeneratorOutput {
  generatorIndex: number;
  params: readonly ParamSet[];
}

/**
 * An Argo CD Application as the renderer generates it, before it has an owner or reaches the cluster
 * (the stored object, read from the cache and written back, is `Application` of ./objects.ts).
 */
export interface GeneratedApplication {
  apiVersion: 'argoproj.io/v1alpha1';
  kind: 'Application';
  metadata: { name: string; namespace: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] } & Record<
    string,
    unknown
  >;
  spec: Record<string, unknown>;
}

/** One rendered Application and the parameter set it came from. */
export interface RenderedApplication {
  application: GeneratedApplication;
  generatorIndex: number;
  paramIndex: number;
}

/** Per-ApplicationSet bounds on rendering. */
export interface RenderLimits {
  /** Wall-clock budget for rendering all of one ApplicationSet's Applications. */
  timeLimitMs: number;
  /** Characters of rendered template output allowed for one ApplicationSet. */
  maxOutputBytes: number;
}

/** Defaults: generous for 10,000 Applications, small enough that a runaway template stops quickly. */
export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({ timeLimitMs: 10_000, maxOutputBytes: 64 * 1024 * 1024 });

/** The annotation that opts an ApplicationSet out of strict missing parameters. */
export const MISSING_PARAMETERS_ANNOTATION = 'appset-controller/missing-parameters';
