import { isDeepStrictEqual } from 'node:util';
import { readClusterDecisionResourceSpec } from '../../generators/cluster-decision-resource.js';
import { matchesSelector } from '../../generators/label-selector.js';
import { generatorsOfKind } from '../../model/generator-walk.js';

/** The generator key routing looks for. */
const KIND = 'clusterDecisionResource';

/** A duck-typed object as routing reads it: its name and labels (and its status, to tell real changes). */
export interface WatchedDecisionObject {
  readonly metadata?: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly status?: unknown;
}

const configMapRefOf = (raw: unknown): unknown => (raw !== null && typeof raw === 'object' ? (raw as { configMapRef?: unknown }).configMapRef : undefined);

/**
 * The ConfigMaps an ApplicationSet's clusterDecisionResource generators name, nested ones included. A templated
 * name (a matrix child's `{{…}}`) names no ConfigMap that can be watched, so it is left out: that ApplicationSet
 * follows its requeue interval.
 */
export function decisionConfigMapsOf(spec: unknown): string[] {
  const names = generatorsOfKind(spec, KIND)
    .map(configMapRefOf)
    .filter((name): name is string => typeof name === 'string' && name !== '' && !name.includes('{{'));
  return [...new Set(names)];
}

/**
 * True if a change of a duck-typed object (its version before and after; undefined when added or deleted) can
 * change what one of the ApplicationSet's generators that use ConfigMap `configMap` reads: it is the object the
 * generator names, or its labels match the generator's selector before or after. A spec that cannot be read, or a
 * templated name, counts as concerned, so the reconcile runs and reports or resolves it.
 */
export function decisionChangeConcerns(
  spec: unknown,
  configMap: string,
  old: WatchedDecisionObject | undefined,
  next: WatchedDecisionObject | undefined,
): boolean {
  const versions = [old, next].filter((v): v is WatchedDecisionObject => v !== undefined);
  return generatorsOfKind(spec, KIND)
    .filter((raw) => configMapRefOf(raw) === configMap)
    .some((raw) => {
      let generator;
      try {
        generator = readClusterDecisionResourceSpec(raw);
      } catch {
        return true;
      }
      if (generator.name.includes('{{')) return true;
      if (generator.name !== '') return versions.some((v) => v.metadata?.name === generator.name);
      const selector = generator.labelSelector;
      return selector === undefined || versions.some((v) => matchesSelector(selector, v.metadata?.labels ?? {}));
    });
}

/** A duck-typed object's update matters when its status or labels changed (not for metadata churn or a resync). */
export function decisionUpdateMatters(old: WatchedDecisionObject, next: WatchedDecisionObject): boolean {
  return !isDeepStrictEqual(old.status, next.status) || !isDeepStrictEqual(old.metadata?.labels ?? {}, next.metadata?.labels ?? {});
}
