import { DEFAULT_PROJECT } from '../tenancy/default-project.js';

/**
 * The AppProjects `appset render` treats as existing. Offline it cannot ask a cluster, so it assumes what every
 * Argo CD install has, the `default` AppProject, plus every `kind: AppProject` document among the files it
 * renders (so a tenant's AppProject can be previewed with its ApplicationSets).
 */
export function renderProjects(documents: readonly unknown[]): ReadonlySet<string> {
  const names = new Set([DEFAULT_PROJECT]);
  for (const doc of documents) {
    const object = doc as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (object?.kind === 'AppProject' && typeof object.metadata?.name === 'string') names.add(object.metadata.name);
  }
  return names;
}
