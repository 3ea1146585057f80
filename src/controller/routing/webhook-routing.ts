import type { KubeObject, ReadonlyStore } from '../../kube/informer/index.js';
import { objectKey } from '../../kube/informer/index.js';
import { gitTargets } from '../../model/git-targets.js';
import type { PushEvent } from '../../model/push.js';
import { pushAffects, pushedIdentities } from '../../model/push-matching.js';
import { scmEventKeys, type ScmChangeEvent } from '../../model/scm-event.js';
import { GIT_REPO_INDEX, SCM_EVENT_INDEX } from './caches.js';

/**
 * Enqueues exactly the ApplicationSets a push affects: candidates come from the index of git generator
 * repositories (so a push never scans every ApplicationSet), then each candidate's generators are
 * matched on revision. Returns how many were enqueued.
 */
export function routePush(
  push: PushEvent,
  appsets: ReadonlyStore<KubeObject>,
  enqueue: (key: string) => void,
  namespaceAllowed: (namespace: string) => boolean,
): number {
  const candidates = new Map<string, KubeObject>();
  for (const identity of pushedIdentities(push)) for (const appset of appsets.byIndex(GIT_REPO_INDEX, identity)) candidates.set(objectKey(appset), appset);
  let enqueued = 0;
  for (const [key, appset] of candidates) {
    if (!namespaceAllowed(appset.metadata?.namespace ?? '')) continue;
    if (!gitTargets((appset as { spec?: unknown }).spec).some((target) => pushAffects(push, target))) continue;
    enqueue(key);
    enqueued++;
  }
  return enqueued;
}

/**
 * Enqueues exactly the ApplicationSets whose pull request or SCM provider generators a change concerns,
 * found through the index of their routing keys. Returns how many were enqueued.
 */
export function routeScmChange(
  change: ScmChangeEvent,
  appsets: ReadonlyStore<KubeObject>,
  enqueue: (key: string) => void,
  namespaceAllowed: (namespace: string) => boolean,
): number {
  const woken = new Set<string>();
  for (const eventKey of scmEventKeys(change)) {
    for (const appset of appsets.byIndex(SCM_EVENT_INDEX, eventKey)) {
      const key = objectKey(appset);
      if (woken.has(key) || !namespaceAllowed(appset.metadata?.namespace ?? '')) continue;
      woken.add(key);
      enqueue(key);
    }
  }
  return woken.size;
}
