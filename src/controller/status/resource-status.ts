import type { Application } from '../../model/objects.js';

/** One entry of `status.resources`: an owned Application and its sync and health state. */
export interface ResourceStatus {
  readonly group: 'argoproj.io';
  readonly version: 'v1alpha1';
  readonly kind: 'Application';
  readonly name: string;
  readonly namespace: string;
  readonly status?: string;
  readonly health?: { readonly status: string };
}

/** Argo CD's documented default cap on `status.resources` (the default of `--max-resources-status-count`). */
export const DEFAULT_MAX_RESOURCES_STATUS = 5000;

/**
 * `status.resources` for the owned Applications, sorted by name and capped at `max` entries (0 = no
 * cap), with `resourcesCount` the full count, so a huge ApplicationSet cannot outgrow etcd's object limit.
 */
export function resourceStatus(owned: readonly Application[], max = DEFAULT_MAX_RESOURCES_STATUS): { resources: ResourceStatus[]; resourcesCount: number } {
  const all = [...owned]
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))
    .map((app): ResourceStatus => {
      const sync = app.status?.sync?.status;
      const health = app.status?.health?.status;
      return {
        group: 'argoproj.io',
        version: 'v1alpha1',
        kind: 'Application',
        name: app.metadata.name,
        namespace: app.metadata.namespace ?? '',
        ...(sync ? { status: sync } : {}),
        ...(health ? { health: { status: health } } : {}),
      };
    });
  return { resources: max > 0 ? all.slice(0, max) : all, resourcesCount: all.length };
}
