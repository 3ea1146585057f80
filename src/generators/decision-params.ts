import type { ParamSet, ParamValue } from '../model/params.js';
import { DecisionResourceError, type DecisionObject } from './decision-resources.js';
import { goTypedValue } from './go-typed.js';
import { isObject } from './spec-reading.js';

/** A cluster known to Argo CD, as the clusterDecisionResource generator matches it: by name. */
export interface KnownCluster {
  readonly name: string;
  readonly server: string;
}

/** One entry of a duck-typed object's status list, with the object it came from (for messages). */
export interface Decision {
  readonly object: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * The entries of `status.<statusListKey>` of every object, in order. As in Argo CD, an object without a status (or
 * with an empty one) gives none. Where Argo CD's type assertions would panic (a status that has no such list, an
 * entry that is not a map) this is an error naming the object, so the reconcile stops before any write.
 */
export function decisionsOf(objects: readonly DecisionObject[], statusListKey: string): Decision[] {
  return objects.flatMap((object) => {
    const name = object.metadata?.name ?? '';
    const status = object.status;
    if (status === undefined || status === null || (isObject(status) && Object.keys(status).length === 0)) return [];
    if (!isObject(status)) throw new DecisionResourceError(`clusterDecisionResource ${name}: status is not an object`);
    const list = status[statusListKey];
    if (!Array.isArray(list)) throw new DecisionResourceError(`clusterDecisionResource ${name}: status.${statusListKey} is not a list`);
    return list.map((entry, i) => {
      if (!isObject(entry)) throw new DecisionResourceError(`clusterDecisionResource ${name}: status.${statusListKey}[${i}] is not an object`);
      return { object: name, fields: entry };
    });
  });
}

/**
 * One param set per decision whose `matchKey` value names a known cluster, as Argo CD builds it: `name` and
 * `server` of the cluster, then every field of the decision (which may replace them), then `values` verbatim
 * (Argo CD does not template this generator's values): `values.<key>` in fasttemplate (the registry flattens the
 * map), a `map[string]string` in goTemplate. Decisions naming no known cluster are skipped (and reported).
 */
export function decisionParams(
  decisions: readonly Decision[],
  clusters: readonly KnownCluster[],
  matchKey: string,
  values: Readonly<Record<string, string>>,
  onUnmatched: (decision: Decision, value: string) => void = () => {},
): ParamSet[] {
  return decisions.flatMap((decision) => {
    const match = decision.fields[matchKey];
    if (match === undefined || match === null || match === '') {
      onUnmatched(decision, '');
      return [];
    }
    if (typeof match !== 'string') throw notAString(decision, matchKey);
    const cluster = clusters.find((c) => c.name === match);
    if (!cluster) {
      onUnmatched(decision, match);
      return [];
    }
    const params: Record<string, ParamValue> = { name: cluster.name, server: cluster.server };
    for (const [key, value] of Object.entries(decision.fields)) {
      if (typeof value !== 'string') throw notAString(decision, key);
      params[key] = value;
    }
    if (Object.keys(values).length > 0) params.values = goTypedValue({ ...values });
    return [params];
  });
}

function notAString(decision: Decision, key: string): DecisionResourceError {
  return new DecisionResourceError(`clusterDecisionResource ${decision.object}: the decision field "${key}" must be a string, as Argo CD reads it`);
}
