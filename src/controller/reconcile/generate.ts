import type { V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { GitReader } from '../../git/git-reader.js';
import type { ScmAccess } from '../../scm/access.js';
import type { PluginAccess } from '../../scm/plugin/access.js';
import type { DecisionResourceAccess } from '../../generators/decision-resources.js';
import type { Interpolate } from '../../generators/generator.js';
import type { GeneratorRegistry } from '../../generators/registry.js';
import type { GeneratorOutput } from '../../model/applicationset-types.js';
import { DEFAULT_RENDER_LIMITS } from '../../model/applicationset-types.js';
import type { TemplateEngine } from '../../templating/engine.js';
import { RenderBudget } from '../../templating/scope.js';
import type { ApplicationSetObject } from './applicationset.js';

/** What running an ApplicationSet's generators needs. */
export interface GenerateDeps {
  readonly registry: GeneratorRegistry;
  readonly git: GitReader;
  readonly engine: TemplateEngine;
  /** Cluster Secrets this ApplicationSet may see. */
  readonly clusterSecrets: () => readonly V1Secret[];
  /** SCM provider APIs under this ApplicationSet's rules (the platform's, or its tenant's). */
  readonly scm: ScmAccess;
  /** Plugin services under this ApplicationSet's rules (the platform's, or its tenant's); absent: plugin generators fail. */
  readonly plugins?: PluginAccess;
  /** The duck-typed resource access of the ApplicationSets of one namespace (the platform's, or its tenant's); absent: clusterDecisionResource generators fail. */
  readonly decisionResources?: (namespace: string) => DecisionResourceAccess;
  /** Receives each top-level generator entry's run time in seconds, by generator name (failed runs too). */
  readonly observeGenerator?: (generator: string, seconds: number) => void;
}

/** The parameter sets of every generator entry, and the shortest requeue interval they ask for. */
export interface Generated {
  readonly outputs: GeneratorOutput[];
  readonly requeueAfterMs: number | undefined;
}

/**
 * Runs each `spec.generators` entry in order. Any failure throws: a partial result would look like
 * "these Applications are gone" and delete the rest.
 */
export async function generate(appset: ApplicationSetObject, deps: GenerateDeps, signal: AbortSignal, log: Logger): Promise<Generated> {
  const ctx = {
    signal,
    log,
    git: deps.git,
    clusterSecrets: deps.clusterSecrets,
    goTemplate: appset.spec.goTemplate === true,
    scm: deps.scm,
    ...(deps.plugins ? { plugins: deps.plugins } : {}),
    ...(deps.decisionResources ? { decisionResources: deps.decisionResources(appset.metadata.namespace) } : {}),
    applicationSetName: appset.metadata.name,
    interpolate: interpolatorFor(appset, deps.engine),
  };
  const outputs: GeneratorOutput[] = [];
  const intervals: Array<number | undefined> = [];
  for (const [generatorIndex, entry] of appset.spec.generators.entries()) {
    const field = `spec.generators[${generatorIndex}]`;
    const started = performance.now();
    try {
      outputs.push({ generatorIndex, params: await deps.registry.generateEntry(entry, ctx, field) });
    } finally {
      deps.observeGenerator?.(generatorName(entry, deps.registry.names), (performance.now() - started) / 1000);
    }
    intervals.push(deps.registry.requeueAfterMs(entry, field));
  }
  const defined = intervals.filter((v): v is number => v !== undefined);
  return { outputs, requeueAfterMs: defined.length > 0 ? Math.min(...defined) : undefined };
}

/**
 * The generator an entry names (`list`, `git`, …), for a metric label; `unknown` unless it names
 * exactly one registered generator, so a tenant's spec cannot create label values at will.
 */
function generatorName(entry: unknown, known: readonly string[]): string {
  const keys = Object.keys(entry ?? {}).filter((key) => key !== 'selector');
  return keys.length === 1 && known.includes(keys[0] as string) ? (keys[0] as string) : 'unknown';
}

/** Interpolation for generator fields (matrix children, `values`) in the ApplicationSet's own template style. */
function interpolatorFor(appset: ApplicationSetObject, engine: TemplateEngine): Interpolate {
  const style = appset.spec.goTemplate ? 'goTemplate' : 'fasttemplate';
  const budget = new RenderBudget(DEFAULT_RENDER_LIMITS.timeLimitMs, DEFAULT_RENDER_LIMITS.maxOutputBytes);
  return (template, params, options) => engine.render(style, template, params, { missing: options.allowUnresolved ? 'keep' : 'strict', patch: false, budget });
}
