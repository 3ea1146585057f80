import type { V1Secret } from '@kubernetes/client-node';
import type { ParamSet } from '../model/params.js';
import { IN_CLUSTER_NAME, IN_CLUSTER_SERVER, isClusterSecret, parseClusterSecret } from './cluster-secrets.js';
import { decisionParams, decisionsOf, type KnownCluster } from './decision-params.js';
import {
  decisionResourceTypeOf,
  DecisionResourceError,
  DecisionResourceRefused,
  describeDecisionType,
  type DecisionResourceAccess,
  type DecisionResourceType,
  type DecisionSelection,
} from './decision-resources.js';
import type { Generator, GeneratorContext } from './generator.js';
import { parseLabelSelector, type LabelSelector } from './label-selector.js';
import { GeneratorSpecError, isObject, readObject, readOptionalSeconds, readOptionalString, readString, readStringMap } from './spec-reading.js';

/** Argo CD's requeue of a clusterDecisionResource generator without `requeueAfterSeconds`: 3 minutes. */
export const DEFAULT_DECISION_REQUEUE_MS = 3 * 60_000;

/** Argo CD's status list key when the ConfigMap names none. */
export const DEFAULT_STATUS_LIST_KEY = 'clusters';

/** A `clusterDecisionResource` generator spec, read and checked field by field. */
export interface ClusterDecisionResourceSpec {
  readonly configMapRef: string;
  /** `name`; empty when absent. */
  readonly name: string;
  /** `labelSelector`, when it has `matchLabels` or `matchExpressions` (Argo CD's test of "given"). */
  readonly labelSelector: LabelSelector | undefined;
  readonly values: Readonly<Record<string, string>>;
  readonly requeueAfterSeconds: number | undefined;
}

/** Reads a `clusterDecisionResource` spec; every problem names its field. */
export function readClusterDecisionResourceSpec(raw: unknown): ClusterDecisionResourceSpec {
  const body = readObject(raw, 'clusterDecisionResource');
  const selector =
    body.labelSelector === undefined || body.labelSelector === null ? {} : readObject(body.labelSelector, 'clusterDecisionResource.labelSelector');
  const given = (selector.matchLabels ?? null) !== null || (selector.matchExpressions ?? null) !== null;
  return {
    configMapRef: readString(body.configMapRef, 'clusterDecisionResource.configMapRef'),
    name: readOptionalString(body.name, 'clusterDecisionResource.name'),
    labelSelector: given ? parseLabelSelector(selector, 'clusterDecisionResource.labelSelector') : undefined,
    values: readStringMap(body.values, 'clusterDecisionResource.values'),
    requeueAfterSeconds: readOptionalSeconds(body.requeueAfterSeconds, 'clusterDecisionResource.requeueAfterSeconds'),
  };
}

/**
 * The clusterDecisionResource generator: reads the duck-typed resource a ConfigMap describes and gives one param
 * set per entry of its status list that names a cluster of `ctx.clusterSecrets()` (already limited to a tenant's
 * project), with the parameters Argo CD gives (see {@link decisionParams}).
 */
export const clusterDecisionResourceGenerator: Generator = {
  name: 'clusterDecisionResource',
  generate: (raw, ctx) => Promise.resolve().then(() => generate(readClusterDecisionResourceSpec(raw), ctx)),
  // As Argo CD: 3 minutes by default; 0 asks for no requeue at all (the watch of the resource still requeues).
  requeueAfterMs: (raw) => {
    const seconds = readClusterDecisionResourceSpec(raw).requeueAfterSeconds;
    if (seconds === undefined) return DEFAULT_DECISION_REQUEUE_MS;
    return seconds === 0 ? undefined : seconds * 1000;
  },
};

// Argo CD's order of checks (clusters, ConfigMap, its kind and apiVersion, name or selector, the list), so the
// first problem reported is the one Argo CD reports.
async function generate(spec: ClusterDecisionResourceSpec, ctx: GeneratorContext): Promise<ParamSet[]> {
  const access = ctx.decisionResources;
  if (!access)
    throw new GeneratorSpecError('clusterDecisionResource', 'clusterDecisionResource generators cannot run here (no duck-typed resources can be read)');
  const clusters = knownClusters(ctx.clusterSecrets());
  const data = await readConfigMap(access, spec.configMapRef, ctx.signal);
  const type = decisionResourceTypeOf(data);
  if (!type) {
    const found = `apiVersion ${JSON.stringify(data['apiVersion'] ?? '')}, kind ${JSON.stringify(data['kind'] ?? '')}`;
    throw new DecisionResourceError(
      `there is a problem with the apiVersion, kind or resourceName provided: ConfigMap ${spec.configMapRef} needs "apiVersion" as group/version and "kind" (the plural resource name); found ${found}`,
    );
  }
  const objects = await listObjects(access, type, selectionOf(spec), ctx.signal);
  const matchKey = data['matchKey'] ?? '';
  if (matchKey === '') {
    // As Argo CD: no parameters, no error (its log says why; so does ours).
    ctx.log.warn({ configMap: spec.configMapRef }, 'clusterDecisionResource: the ConfigMap has no matchKey; no parameters');
    return [];
  }
  const decisions = decisionsOf(objects, data['statusListKey'] || DEFAULT_STATUS_LIST_KEY);
  const params = decisionParams(decisions, clusters, matchKey, spec.values, (decision, value) =>
    ctx.log.debug({ resource: decision.object, matchKey, value }, 'clusterDecisionResource: the decision names no known cluster'),
  );
  ctx.log.debug(
    { resource: describeDecisionType(type), objects: objects.length, decisions: decisions.length, params: params.length },
    'clusterDecisionResource generator',
  );
  return params;
}

/** Argo CD's clusters by name: every cluster Secret (by Secret name), and the local cluster unless a Secret declares its server. */
export function knownClusters(secrets: readonly V1Secret[]): KnownCluster[] {
  const clusters = secrets.filter(isClusterSecret).map(parseClusterSecret);
  clusters.sort((a, b) => a.secretName.localeCompare(b.secretName));
  const known: KnownCluster[] = clusters.map((c) => ({ name: c.name, server: c.server }));
  if (!known.some((c) => c.server === IN_CLUSTER_SERVER)) known.push({ name: IN_CLUSTER_NAME, server: IN_CLUSTER_SERVER });
  return known;
}

/** Exactly one of `name` and `labelSelector`, or Argo CD's error. */
function selectionOf(spec: ClusterDecisionResourceSpec): DecisionSelection {
  const problem = 'there is a problem with the definition of the ClusterDecisionResource generator';
  if (spec.name !== '' && spec.labelSelector)
    throw new GeneratorSpecError('clusterDecisionResource', `${problem}: give either name or labelSelector, not both`);
  if (spec.name !== '') return { name: spec.name };
  if (spec.labelSelector) return { labelSelector: spec.labelSelector };
  throw new GeneratorSpecError('clusterDecisionResource', `${problem}: give name or labelSelector (matchLabels or matchExpressions)`);
}

async function readConfigMap(access: DecisionResourceAccess, name: string, signal: AbortSignal): Promise<Readonly<Record<string, string>>> {
  let data;
  try {
    data = await access.configMapData(name, signal);
  } catch (error) {
    if (error instanceof DecisionResourceRefused || signal.aborted) throw error;
    throw new DecisionResourceError(`error reading configMapRef: ${messageOf(error)}`);
  }
  if (!data) throw new DecisionResourceError(`error reading configMapRef: configmaps "${name}" not found`);
  return data;
}

async function listObjects(access: DecisionResourceAccess, type: DecisionResourceType, selection: DecisionSelection, signal: AbortSignal) {
  let objects;
  try {
    objects = await access.list(type, selection, signal);
  } catch (error) {
    if (error instanceof DecisionResourceRefused || signal.aborted) throw error;
    throw new DecisionResourceError(`failed to get dynamic resources: ${messageOf(error)}`);
  }
  if (objects.length === 0) {
    const which = 'name' in selection ? `named "${selection.name}"` : 'matching the labelSelector';
    throw new DecisionResourceError(`no clusterDecisionResources found: no ${describeDecisionType(type)} ${which} in namespace ${access.namespace}`);
  }
  return objects;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a value is a usable clusterDecisionResource spec object (for routing, which must never throw). */
export function isDecisionSpec(raw: unknown): raw is Record<string, unknown> {
  return isObject(raw) && typeof raw.configMapRef === 'string';
}
