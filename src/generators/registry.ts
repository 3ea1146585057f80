import type { ParamSet } from '../model/params.js';
import type { Generator, GeneratorContext } from './generator.js';
import { clustersGenerator } from './clusters.js';
import { createGitGenerator } from './git.js';
import type { GitGeneratorOptions } from './git-spec.js';
import type { GitResultMemo } from './git-memo.js';
import { matchesSelector, parseLabelSelector } from './label-selector.js';
import { listGenerator } from './list.js';
import { createPullRequestGenerator } from './pull-request/generator.js';
import { PULL_REQUEST_PROVIDERS } from './pull-request/providers/index.js';
import { createScmProviderGenerator } from './scm-provider/generator.js';
import { REPOSITORY_PROVIDERS } from './scm-provider/providers/index.js';
import { createMatrixGenerator } from './matrix.js';
import { createMergeGenerator } from './merge.js';
import { pluginGenerator } from './plugin.js';
import { clusterDecisionResourceGenerator } from './cluster-decision-resource.js';
import { flattenParams } from './params.js';
import { toFasttemplateParams } from './fasttemplate-params.js';
import { GeneratorSpecError, readObject } from './spec-reading.js';

/** One `generators[]` entry split into its generator, that generator's spec and the post-selector. */
export interface GeneratorEntry {
  generator: Generator;
  spec: unknown;
  selector: unknown;
}

/** The generators by the key that names them in an ApplicationSet (`list`, `git`, …). */
export class GeneratorRegistry {
  private readonly byName = new Map<string, Generator>();

  /** Adds a generator; a second one with the same name is a programming error. */
  register(generator: Generator): this {
    if (this.byName.has(generator.name)) throw new Error(`generator "${generator.name}" is registered twice`);
    this.byName.set(generator.name, generator);
    return this;
  }

  /** The registered names, for error messages and docs. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** Splits an entry such as `{ git: {...}, selector: {...} }`; exactly one generator key is allowed. */
  parseEntry(raw: unknown, field: string): GeneratorEntry {
    const entry = readObject(raw, field);
    const keys = Object.keys(entry).filter((k) => k !== 'selector' && entry[k] !== undefined && entry[k] !== null);
    if (keys.includes('template')) throw new GeneratorSpecError(`${field}.template`, 'generator-level template overrides are not supported');
    if (keys.length !== 1)
      throw new GeneratorSpecError(field, `must name exactly one generator (${this.names.join(', ')}), found ${keys.length === 0 ? 'none' : keys.join(', ')}`);
    const name = keys[0] as string;
    const generator = this.byName.get(name);
    if (!generator) throw new GeneratorSpecError(`${field}.${name}`, `unknown generator; known: ${this.names.join(', ')}`);
    return { generator, spec: entry[name], selector: entry.selector };
  }

  /**
   * Runs one entry and applies its post-selector to the flattened params. With fasttemplate the params
   * leave here flat, as Argo CD's are, so matrix, merge and selectors see Argo CD's names.
   */
  async generateEntry(raw: unknown, ctx: GeneratorContext, field: string): Promise<ParamSet[]> {
    const { generator, spec, selector } = this.parseEntry(raw, field);
    const postSelector = parseLabelSelector(selector, `${field}.selector`);
    const generated = await generator.generate(spec, ctx);
    const params = ctx.goTemplate ? generated : generated.map(toFasttemplateParams);
    // An empty selector matches everything: flattening every param set to learn that cost ~100 ms per 10,000.
    if (Object.keys(postSelector.matchLabels).length === 0 && postSelector.matchExpressions.length === 0) return [...params];
    return params.filter((p) => matchesSelector(postSelector, flattenParams(p)));
  }

  /** The requeue interval an entry asks for, or undefined when it relies on watch events only. */
  requeueAfterMs(raw: unknown, field: string): number | undefined {
    const { generator, spec } = this.parseEntry(raw, field);
    return generator.requeueAfterMs?.(spec);
  }
}

/** Switches that change what generators produce, as Argo CD's repo-server flags do. */
export interface GeneratorOptions {
  readonly git?: GitGeneratorOptions;
  /** Where the git generator keeps its results (default: a memo of its own with the default bounds). */
  readonly gitMemo?: GitResultMemo;
}

/** The registry with every generator this controller implements: list, clusters, git, pullRequest, scmProvider, plugin, clusterDecisionResource, matrix, merge. */
export function createGeneratorRegistry(options: GeneratorOptions = {}): GeneratorRegistry {
  const registry = new GeneratorRegistry().register(listGenerator).register(clustersGenerator).register(createGitGenerator(options.git, options.gitMemo));
  registry.register(createPullRequestGenerator(PULL_REQUEST_PROVIDERS)).register(createScmProviderGenerator(REPOSITORY_PROVIDERS)).register(pluginGenerator);
  registry.register(clusterDecisionResourceGenerator);
  return registry.register(createMatrixGenerator(registry)).register(createMergeGenerator(registry));
}

/** What an ApplicationSet's generators produced. */
export interface GenerationResult {
  /** Every entry's param sets, concatenated in entry order. */
  paramSets: ParamSet[];
  /** The smallest interval any generator asked for; undefined = wait for watch events. */
  requeueAfterMs: number | undefined;
}

/** Runs `spec.generators` of an ApplicationSet; any failure throws (never a partial result). */
export async function runGenerators(registry: GeneratorRegistry, generators: readonly unknown[], ctx: GeneratorContext): Promise<GenerationResult> {
  const paramSets: ParamSet[] = [];
  for (const [i, entry] of generators.entries()) {
    paramSets.push(...(await registry.generateEntry(entry, ctx, `spec.generators[${i}]`)));
  }
  return { paramSets, requeueAfterMs: minimumRequeue(generators.map((e, i) => registry.requeueAfterMs(e, `spec.generators[${i}]`))) };
}

/** The smallest defined interval, or undefined when none is defined. */
export function minimumRequeue(intervals: readonly (number | undefined)[]): number | undefined {
  const defined = intervals.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
}
