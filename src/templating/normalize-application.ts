import { ARGOCD_APPLICATION_SPEC_SHAPE } from '../model/argocd-application-shape.js';
import { goJsonRoundTrip } from '../model/go-json-shape.js';
import { isPlainMap } from './plain-values.js';

/**
 * An Application spec as Argo CD's ApplicationSet controller stores it: read into Argo CD's Go structs and written
 * back (zero values of `omitempty` fields dropped, structs that are not pointers written as `{}`), after Argo CD's
 * NormalizeApplicationSpec (an empty syncPolicy, helm, kustomize or directory block removed). As in Argo CD, the
 * blocks of a multi-source Application are left as they are: its normalization works on copies there.
 */
export function normalizeApplicationSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const stored = goJsonRoundTrip(spec, ARGOCD_APPLICATION_SPEC_SHAPE);
  if (!isPlainMap(stored)) return spec;
  const out: Record<string, unknown> = { ...stored };
  if (out['project'] === '') out['project'] = 'default';
  if (isZeroSyncPolicy(out['syncPolicy'])) delete out['syncPolicy'];
  const sources = out['sources'];
  if (!isPlainMap(out['source']) || (Array.isArray(sources) && sources.length > 0)) return out;
  const source = normalizeSource(out['source']);
  out['source'] = source.source;
  if (!source.directoryRewritten) return out;
  // Argo CD writes after normalizing: a directory reduced to include/exclude is written with its `jsonnet: {}` again.
  const written = goJsonRoundTrip(out, ARGOCD_APPLICATION_SPEC_SHAPE);
  return isPlainMap(written) ? written : out;
}

const empty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === false ||
  (Array.isArray(value) ? value.length === 0 : isPlainMap(value) && Object.keys(value).length === 0);
const allEmpty = (block: Record<string, unknown>, fields: readonly string[]): boolean => fields.every((field) => empty(block[field]));

/** SyncPolicy.IsZero: no automated, syncOptions, retry or managedNamespaceMetadata. */
function isZeroSyncPolicy(policy: unknown): boolean {
  return !isPlainMap(policy) || allEmpty(policy, ['automated', 'syncOptions', 'retry', 'managedNamespaceMetadata']);
}

/** The fields each source block's IsZero looks at in Argo CD v3.2.6 (others, such as kustomize's `forceCommonLabels`, it ignores). */
const HELM_ZERO_FIELDS = [
  'version',
  'releaseName',
  'valueFiles',
  'parameters',
  'fileParameters',
  'values',
  'valuesObject',
  'passCredentials',
  'ignoreMissingValueFiles',
  'skipCrds',
  'skipTests',
  'skipSchemaValidation',
  'kubeVersion',
  'apiVersions',
  'namespace',
];
const KUSTOMIZE_ZERO_FIELDS = [
  'namePrefix',
  'nameSuffix',
  'version',
  'namespace',
  'images',
  'replicas',
  'commonLabels',
  'commonAnnotations',
  'patches',
  'components',
  'kubeVersion',
  'apiVersions',
  'ignoreMissingComponents',
];

/** NormalizeSource: a zero helm or kustomize block goes; a zero directory keeps only its include and exclude. */
function normalizeSource(source: Record<string, unknown>): { source: Record<string, unknown>; directoryRewritten: boolean } {
  const out = { ...source };
  let directoryRewritten = false;
  if (isPlainMap(out['kustomize']) && allEmpty(out['kustomize'], KUSTOMIZE_ZERO_FIELDS)) delete out['kustomize'];
  if (isPlainMap(out['helm']) && allEmpty(out['helm'], HELM_ZERO_FIELDS)) delete out['helm'];
  const directory = out['directory'];
  if (isPlainMap(directory) && !directory['recurse'] && (!isPlainMap(directory['jsonnet']) || allEmpty(directory['jsonnet'], ['extVars', 'tlas', 'libs']))) {
    const kept = Object.fromEntries(['exclude', 'include'].filter((key) => !empty(directory[key])).map((key) => [key, directory[key]]));
    if (Object.keys(kept).length > 0) {
      out['directory'] = kept;
      directoryRewritten = true;
    } else delete out['directory'];
  }
  return { source: out, directoryRewritten };
}
