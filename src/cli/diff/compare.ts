import type { Logger } from 'pino';
import type { ApplicationSetObject } from '../../controller/reconcile/applicationset.js';
import { previewReconcile, type PreviewDeps, type PreviewWorld } from '../../controller/reconcile/preview.js';
import { controllingApplicationSet, type Application } from '../../model/objects.js';
import { applicationSetDiff, type CompareOptions } from './application-changes.js';
import type { ApplicationSetDiff } from './diff-report.js';
import { leafChanges } from './field-diff.js';
import { mapBounded } from '../../model/map-bounded.js';
import { manifestProblems } from './manifest-shape.js';
import type { Preview } from '../../controller/reconcile/preview.js';

/** The Applications a cluster holds (or would hold), by namespace and name and by controlling ApplicationSet. */
export class ApplicationIndex {
  private readonly byNamespace = new Map<string, Map<string, Application>>();
  private readonly byOwner = new Map<string, Application[]>();

  constructor(applications: Iterable<Application>) {
    for (const app of applications) {
      const namespace = app.metadata.namespace ?? '';
      const names = this.byNamespace.get(namespace) ?? new Map<string, Application>();
      names.set(app.metadata.name, app);
      this.byNamespace.set(namespace, names);
      const owner = controllingApplicationSet(app)?.uid;
      if (owner !== undefined) this.byOwner.set(owner, [...(this.byOwner.get(owner) ?? []), app]);
    }
  }

  /** What a preview of the ApplicationSet with this namespace and UID sees, as the controller's cache shows it. */
  worldOf(namespace: string, uid: string): PreviewWorld {
    const names = this.byNamespace.get(namespace);
    return { owned: this.byOwner.get(uid) ?? [], lookup: (name) => names?.get(name), inNamespace: names?.size ?? 0 };
  }
}

/** How many ApplicationSets are previewed at once: generators wait on Git and the API, not on this process. */
const CONCURRENCY = 8;

/**
 * Previews each ApplicationSet against the index, through the controller's own reconcile stages and plan,
 * and turns each plan into its Application by Application diff, sorted by namespace then name.
 */
export async function compareApplicationSets(
  deps: PreviewDeps,
  appsets: readonly ApplicationSetObject[],
  index: ApplicationIndex,
  presence: (appset: ApplicationSetObject) => ApplicationSetDiff['presence'],
  options: CompareOptions,
  log: Logger,
): Promise<ApplicationSetDiff[]> {
  const signal = new AbortController().signal;
  return mapBounded(appsets, CONCURRENCY, async (appset) => {
    const world = index.worldOf(appset.metadata.namespace, appset.metadata.uid);
    const problems = manifestProblems(appset);
    if (problems.length > 0) return applicationSetDiff(appset.metadata, presence(appset), manifestFailure(problems), world, options);
    const preview = await previewReconcile(deps, appset, world, signal, log.child({ appset: `${appset.metadata.namespace}/${appset.metadata.name}` }));
    return applicationSetDiff(appset.metadata, presence(appset), preview, world, options);
  });
}

/** An ApplicationSet that is gone: the garbage collector deletes every Application it controls. */
export function removedApplicationSet(namespace: string, name: string, owned: readonly Application[]): ApplicationSetDiff {
  return {
    namespace,
    name,
    presence: 'removed',
    verdict: { result: 'accepted' },
    changes: owned
      .map((app) => ({ name: app.metadata.name, action: 'delete' as const, fields: leafChanges({ spec: app.spec }, 'removed') }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    unchanged: 0,
    skippedByPolicy: { updates: [], deletes: [] },
    conflicts: [],
    notes: ['the ApplicationSet is removed: the garbage collector deletes the Applications it controls, whatever its sync policy'],
  };
}

/** Sorts ApplicationSet diffs by namespace, then name. */
export function byNamespaceAndName(a: ApplicationSetDiff, b: ApplicationSetDiff): number {
  const key = (d: ApplicationSetDiff): string => `${d.namespace}\u0000${d.name}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** The condition reason `appset diff` and `appset validate` give a manifest the API server would refuse. */
export const INVALID_MANIFEST = 'InvalidManifest';

/** A manifest the API server would refuse: the controller never sees it. */
export function manifestFailure(problems: readonly string[]): Preview {
  return { kind: 'failed', reason: INVALID_MANIFEST, message: manifestFailureMessage(problems) };
}

/** The message of {@link manifestFailure}. */
export function manifestFailureMessage(problems: readonly string[]): string {
  return `the API server would refuse this manifest: ${problems.join('; ')}`;
}
