/** The name of the AppProject every Argo CD install has. */
export const DEFAULT_PROJECT = 'default';

/** An AppProject manifest, as written to the API server. */
export interface AppProjectManifest {
  readonly apiVersion: 'argoproj.io/v1alpha1';
  readonly kind: 'AppProject';
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/**
 * Argo CD's `default` AppProject as its API server creates it at start (server.go initializeDefaultProject):
 * every source repository, every destination, every cluster-scoped resource. Generated Applications must name
 * an AppProject that exists, so environments without Argo CD (local mode, tests, benchmarks) create this one.
 */
export function defaultAppProject(namespace: string): AppProjectManifest {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: DEFAULT_PROJECT, namespace },
    spec: {
      sourceRepos: ['*'],
      destinations: [{ server: '*', namespace: '*' }],
      clusterResourceWhitelist: [{ group: '*', kind: '*' }],
    },
  };
}
