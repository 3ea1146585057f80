import { applyIntent, INTENT_HASH_ANNOTATION } from '../../src/controller/plan/apply-intent.js';
import { desiredApplication } from '../../src/controller/reconcile/desired-application.js';
import type { Application, ApplicationSetIdentity } from '../../src/model/objects.js';

/** The ApplicationSet most controller tests use. */
export const appset: ApplicationSetIdentity = { name: 'guestbook', namespace: 'team-a', uid: 'uid-guestbook' };

/** A desired Application named `name` for {@link appset}, with a path under `spec.source`. */
export function desired(name: string, path = name, extra: Record<string, unknown> = {}): Application {
  return desiredApplication(
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name, namespace: 'ignored', labels: { env: 'dev' }, annotations: { team: 'a' }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path, ...extra },
        destination: { server: 'https://kubernetes.default.svc', namespace: name },
      },
    },
    appset,
  );
}

/** A live Application as a test may edit it before freezing. */
export interface MutableLive {
  metadata: {
    uid?: string;
    resourceVersion?: string;
    annotations: Record<string, string>;
    labels: Record<string, string>;
    finalizers: string[];
    ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
    deletionTimestamp?: string;
  };
  spec: { source: { path?: string; targetRevision?: string; helm?: { releaseName?: string } }; syncPolicy?: unknown };
}

/** What the server holds after `intent` was applied, plus whatever `change` adds (other managers' edits). */
export function liveFrom(intent: Application, change: (live: MutableLive) => void = () => undefined): Application {
  const live = structuredClone(intent) as unknown as MutableLive;
  live.metadata.uid = `uid-${intent.metadata.name}`;
  live.metadata.resourceVersion = '1';
  change(live);
  return deepFreeze(live) as unknown as Application;
}

/** Freezes every object inside `value`, as the informer store hands objects out. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** A live Application exactly as the controller would have applied it for `desiredApp`. */
export function appliedLive(desiredApp: Application): Application {
  return liveFrom(applyIntent(desiredApp, undefined, {}));
}

/** An intent with keys out of order, escaped and non-ASCII text, nulls, undefined and odd keys: its hash is pinned by tests. */
export const awkwardIntent = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: {
    name: 'guestbook-prod',
    namespace: 'team-a',
    labels: { 'z-last': 'z', 'a-first': 'a', ünïcode: 'ü' },
    annotations: { note: 'say "hi"\n', [INTENT_HASH_ANNOTATION]: 'stale' },
    finalizers: ['resources-finalizer.argocd.argoproj.io'],
    ownerReferences: [
      { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
    ],
  },
  spec: {
    project: 'default',
    source: {
      repoURL: 'https://git.example/repo.git',
      targetRevision: 'HEAD',
      path: 'apps/guestbook',
      helm: { parameters: [{ name: 'a', value: '1' }, null], valueFiles: [] },
      skipped: undefined,
    },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
    syncPolicy: { automated: { prune: true, selfHeal: false }, retry: { limit: 5 } },
    Upper: 1.5,
    '': 0,
  },
} as unknown as Application;
