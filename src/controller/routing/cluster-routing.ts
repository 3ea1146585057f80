import { matchesSelector, parseLabelSelector } from '../../generators/label-selector.js';
import { generatorsOfKind } from '../../model/generator-walk.js';

/** Labels of one version of a Secret; undefined when that version does not exist (add or delete). */
export type SecretLabels = Readonly<Record<string, string>> | undefined;

/** The `clusters` generator specs of an ApplicationSet spec, also those nested in matrix and merge. */
export function clusterGeneratorSpecs(spec: unknown): unknown[] {
  return generatorsOfKind(spec, 'clusters');
}

/**
 * True if a change of a cluster Secret (its old and new labels) can change what this ApplicationSet
 * generates: some clusters generator's selector matches the old or the new version, or it has a
 * clusterDecisionResource generator. A selector that
 * cannot be parsed counts as matching, so the reconcile runs and reports the broken spec.
 */
export function clusterChangeConcerns(spec: unknown, old: SecretLabels, next: SecretLabels): boolean {
  // A clusterDecisionResource generator joins its decisions with every cluster by name, whatever the labels.
  if (generatorsOfKind(spec, 'clusterDecisionResource').length > 0 && (old !== undefined || next !== undefined)) return true;
  const versions = [old, next].filter((labels): labels is Readonly<Record<string, string>> => labels !== undefined);
  return clusterGeneratorSpecs(spec).some((generator) => {
    let selector;
    try {
      selector = parseLabelSelector((generator as { selector?: unknown } | undefined)?.selector, 'clusters.selector');
    } catch {
      return true;
    }
    return versions.some((labels) => matchesSelector(selector, labels));
  });
}
