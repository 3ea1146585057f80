import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { pino } from 'pino';
import { loadKubeConfig } from '../../kube/kubeconfig.js';
import { KubeApiError } from '../../kube/transport/api-errors.js';
import { pathSegment } from '../../kube/transport/request-url.js';
import { createKubeTransport, type KubeTransport } from '../../kube/transport/transport.js';
import type { Application } from '../../model/objects.js';
import { SECRET_TYPE_LABEL } from '../../model/secrets.js';
import { RepoCache } from '../../git/repo-cache.js';
import { ExpectedFailure } from '../expected-failure.js';
import type { FileObject } from '../render-decision-resources.js';
import { applicationSetsIn, mappedGit, readYamlDocuments, renderDeps } from '../render-applicationsets.js';
import { ApplicationIndex, byNamespaceAndName, compareApplicationSets } from './compare.js';
import { DIFF_SCHEMA_VERSION, summarize, type DiffReport } from './diff-report.js';
import { previewDeps, projectsIn, type ControllerAssumptions } from './preview-deps.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What `appset diff --live` reads. */
export interface LiveDiffInput {
  readonly files: readonly string[];
  readonly kubeconfig?: string;
  readonly repos: ReadonlyMap<string, string>;
  /** `--projects`: AppProjects instead of the cluster's. */
  readonly projectsFile?: string;
  /** `--clusters`: cluster Secrets instead of the cluster's (and SCM, plugin Secrets and ConfigMaps as for render). */
  readonly clusters?: { readonly secrets: readonly V1Secret[]; readonly configMaps: readonly V1ConfigMap[]; readonly decisionObjects: readonly FileObject[] };
  readonly assume: ControllerAssumptions;
}

/** Lists Argo CD's `plural` of `namespace`, naming what could not be read and why. */
async function listCustom(api: KubeTransport, namespace: string, plural: string): Promise<Array<Record<string, unknown>>> {
  try {
    const path = `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(namespace)}/${plural}`;
    const list = await api.request<{ items?: Array<Record<string, unknown>> }>({ method: 'GET', path, idempotent: true });
    return list.items ?? [];
  } catch (error) {
    throw new ExpectedFailure(`cannot list ${plural} in namespace ${namespace}: ${describe(error)}`, 2);
  }
}

function describe(error: unknown): string {
  return `${error instanceof KubeApiError ? `HTTP ${error.status}: ` : ''}${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}

/**
 * Compares what the files would generate with what the cluster holds now (read only): each ApplicationSet's
 * Applications as the controller's cache would show them (owner reference to the live ApplicationSet's UID),
 * any Application of the namespace by name (conflicts), and the cluster's AppProjects and cluster Secrets
 * unless `--projects` / `--clusters` replace them.
 */
export async function liveDiff(input: LiveDiffInput): Promise<DiffReport> {
  // One JSON GET per list: the controller's own transport, not a generated client (loading one costs ~70 MiB).
  const custom = createKubeTransport(loadKubeConfig(input.kubeconfig), { maxSockets: 8 });
  const namespace = input.assume.controllerNamespace;
  const appsets = applicationSetsIn(input.files.flatMap(readYamlDocuments), namespace);
  const namespaces = [...new Set(appsets.map((a) => a.metadata.namespace))];
  const applications = (await Promise.all(namespaces.map((ns) => listCustom(custom, ns, 'applications')))).flat() as unknown as Application[];
  const liveSets = (await Promise.all(namespaces.map((ns) => listCustom(custom, ns, 'applicationsets')))).flat() as Array<{
    metadata: { namespace: string; name: string; uid: string };
  }>;
  const uidOf = new Map(liveSets.map((s) => [`${s.metadata.namespace}/${s.metadata.name}`, s.metadata.uid]));
  const projectDocs = input.projectsFile ? readYamlDocuments(input.projectsFile) : await listCustom(custom, namespace, 'appprojects');
  const clusters = input.clusters ?? { secrets: await clusterSecrets(custom, namespace), configMaps: [], decisionObjects: [] };
  const cacheRoot = mkdtempSync(join(tmpdir(), 'appset-diff-cache-'));
  try {
    const git = mappedGit(new RepoCache({ root: cacheRoot }), input.repos);
    const deps = previewDeps(
      renderDeps(git, clusters.secrets, clusters.configMaps, clusters.decisionObjects),
      projectsIn(projectDocs.map(asProjectDocument), namespace),
      input.assume,
    );
    const keyed = appsets.map((a) => {
      const uid = uidOf.get(`${a.metadata.namespace}/${a.metadata.name}`);
      return { ...a, metadata: { ...a.metadata, uid: uid ?? `appset-diff:new:${a.metadata.namespace}/${a.metadata.name}` } };
    });
    const present = new Set(uidOf.values());
    const diffs = await compareApplicationSets(
      deps,
      keyed,
      new ApplicationIndex(applications),
      (a) => (present.has(a.metadata.uid) ? 'present' : 'added'),
      { ownKeysOnly: true },
      pino({ level: 'silent' }),
    );
    diffs.sort(byNamespaceAndName);
    return { schemaVersion: DIFF_SCHEMA_VERSION, mode: 'live', base: 'cluster', head: 'files', summary: summarize(diffs), applicationSets: diffs };
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** An AppProject read from the API: the same shape as a manifest, with the kind the list leaves out. */
function asProjectDocument(object: unknown): unknown {
  return { kind: 'AppProject', ...(object as object) };
}

/** The Argo CD cluster Secrets of the controller's namespace. */
async function clusterSecrets(api: KubeTransport, namespace: string): Promise<V1Secret[]> {
  try {
    const path = `/api/v1/namespaces/${pathSegment(namespace)}/secrets`;
    const list = await api.request<{ items?: V1Secret[] }>({ method: 'GET', path, query: { labelSelector: `${SECRET_TYPE_LABEL}=cluster` }, idempotent: true });
    return list.items ?? [];
  } catch (error) {
    throw new ExpectedFailure(`cannot list the cluster Secrets of namespace ${namespace} (${describe(error)}); give them with --clusters FILE`, 2);
  }
}
