import type { ParamSet } from '../model/params.js';
import type { Generator, GeneratorContext } from './generator.js';
import { IN_CLUSTER_NAME, IN_CLUSTER_SERVER, isClusterSecret, parseClusterSecret, type ClusterSecret } from './cluster-secrets.js';
import { isEmptySelector, matchesSelector, parseLabelSelector } from './label-selector.js';
import { sanitizeName } from './normalize.js';
import { readBoolean, readObject, readStringMap } from './spec-reading.js';
import { withTemplatedValues } from './generator-values.js';
import { goTypedValue } from './go-typed.js';

/**
 * The clusters generator: one param set per Argo CD cluster Secret matching `selector`, with
 * `name`, `nameNormalized`, `server`, `project`, `metadata.labels.*`, `metadata.annotations.*` and
 * the templated `values.*`. The local cluster (`in-cluster`) comes first when the selector is empty
 * and no Secret already declares its server. With `flatList`, one param set lists them all as
 * `clusters`. Clusters change through watch events, so no requeue.
 */
export const clustersGenerator: Generator = {
  name: 'clusters',
  // Through a promise so a bad spec rejects instead of throwing synchronously.
  generate: (spec, ctx) => Promise.resolve().then(() => clustersParams(spec, ctx)),
};

function clustersParams(spec: unknown, ctx: GeneratorContext): ParamSet[] {
  const body = spec === null || spec === undefined ? {} : readObject(spec, 'clusters');
  const selector = parseLabelSelector(body.selector, 'clusters.selector');
  const values = readStringMap(body.values, 'clusters.values');
  const flatList = readBoolean(body.flatList, 'clusters.flatList');
  const clusters = ctx.clusterSecrets().filter(isClusterSecret).map(parseClusterSecret);
  clusters.sort((a, b) => a.secretName.localeCompare(b.secretName));
  const selected = clusters.filter((c) => matchesSelector(selector, c.labels));
  if (isEmptySelector(selector) && !clusters.some((c) => c.server === IN_CLUSTER_SERVER)) {
    selected.unshift(localCluster());
  }
  ctx.log.debug({ clusters: selected.length }, 'clusters generator: selected clusters');
  const params = selected.map((c) => withTemplatedValues(c.secretName === '' ? localClusterParams(c) : clusterParams(c), values, ctx));
  // flatList: one param set holding every cluster's params as the list `clusters`, as Argo CD.
  return flatList ? [{ clusters: goTypedValue(params) }] : params;
}

/** The local cluster's params: Argo CD gives it no `metadata` and does not normalise its name. */
function localClusterParams(cluster: ClusterSecret): ParamSet {
  return { name: cluster.name, nameNormalized: cluster.name, server: cluster.server, project: '' };
}

function localCluster(): ClusterSecret {
  return { secretName: '', name: IN_CLUSTER_NAME, server: IN_CLUSTER_SERVER, project: '', labels: {}, annotations: {} };
}

/** The params of one cluster, as Argo CD names them. */
export function clusterParams(cluster: ClusterSecret): ParamSet {
  return {
    name: cluster.name,
    nameNormalized: sanitizeName(cluster.name),
    server: cluster.server,
    project: cluster.project,
    // As Argo CD: `labels` and `annotations` only when the Secret has some (goTemplate's `toJson` and `index` see this).
    metadata: {
      ...(Object.keys(cluster.labels).length > 0 ? { labels: goTypedValue({ ...cluster.labels }) } : {}),
      ...(Object.keys(cluster.annotations).length > 0 ? { annotations: goTypedValue({ ...cluster.annotations }) } : {}),
    },
  };
}
