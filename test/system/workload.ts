import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { renderFiles } from '../../src/cli/render-applicationsets.js';
import type { GeneratedApplication } from '../../src/model/applicationset-types.js';
import type { GitFixtures, GitRepo } from '../../src/environment/local/git-fixtures.js';

/** How big a system workload is: `appSets` ApplicationSets of `appsPerSet` Applications each. */
export interface WorkloadShape {
  readonly appSets: number;
  readonly appsPerSet: number;
}

/** One ApplicationSet manifest of the workload, as created in the cluster. */
export interface AppSetManifest {
  readonly apiVersion: 'argoproj.io/v1alpha1';
  readonly kind: 'ApplicationSet';
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly spec: Record<string, unknown>;
}

const pad = (n: number, width = 3): string => String(n).padStart(width, '0');

/** The folder names in the workload repository: one per Application of a git ApplicationSet. */
export function appFolders(shape: WorkloadShape): string[] {
  return Array.from({ length: shape.appsPerSet }, (_, i) => `app-${pad(i)}`);
}

/** Creates the monorepo the git-directory ApplicationSets read: `apps/app-NNN/kustomization.yaml`. */
export function createWorkloadRepo(fixtures: GitFixtures, name: string, shape: WorkloadShape): Promise<GitRepo> {
  const files = Object.fromEntries(appFolders(shape).map((folder) => [`apps/${folder}/kustomization.yaml`, 'resources: []\n']));
  return fixtures.createRepo(name, files);
}

/**
 * The ApplicationSets: even ones use a list generator, odd ones a git-directory generator over
 * `repoUrl`. `revision` is the one template field every Application carries (`targetRevision`), so
 * changing it is an update wave that touches every Application. `prefix` starts every ApplicationSet name
 * (`set-000`, ...), so a second workload can share a namespace.
 */
export function workloadManifests(shape: WorkloadShape, namespace: string, repoUrl: string, revision: string, prefix = 'set'): AppSetManifest[] {
  if (prefix.length !== 3) throw new Error(`workload prefix ${prefix} must have 3 characters (appSetOf cuts names at 7)`);
  return Array.from({ length: shape.appSets }, (_, index) => {
    const set = `${prefix}-${pad(index)}`;
    const git = index % 2 === 1;
    const generator = git
      ? { git: { repoURL: repoUrl, revision: 'HEAD', directories: [{ path: 'apps/*' }] } }
      : { list: { elements: appFolders(shape).map((folder) => ({ app: folder })) } };
    const param = git ? '{{path.basename}}' : '{{app}}';
    return {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: set, namespace },
      spec: {
        generators: [generator],
        template: {
          metadata: { name: `${set}-${param}`, labels: { 'bench.appset/set': set } },
          spec: {
            project: 'default',
            source: { repoURL: repoUrl, targetRevision: revision, path: git ? '{{path}}' : `apps/${param}` },
            destination: { server: 'https://kubernetes.default.svc', namespace: param },
          },
        },
      },
    };
  });
}

/** The ApplicationSet an Application of the workload belongs to (its name's `set-NNN` prefix). */
export function appSetOf(applicationName: string): string {
  return applicationName.slice(0, 'set-000'.length);
}

/**
 * What `appset render` says the manifests produce: the same code path (generators, then the renderer),
 * with `repoUrl` read from the local bare repository. Keyed by Application name.
 */
export async function renderExpected(manifests: readonly AppSetManifest[], repoUrl: string, barePath: string): Promise<Map<string, GeneratedApplication>> {
  const dir = mkdtempSync(join(tmpdir(), 'appset-workload-'));
  try {
    const file = join(dir, 'appsets.yaml');
    writeFileSync(file, manifests.map((m) => stringify(m)).join('---\n'));
    const rendered = await renderFiles({ files: [file], repos: new Map([[repoUrl, barePath]]), clusters: [] });
    return new Map(rendered.map((app) => [app.metadata.name, app]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
