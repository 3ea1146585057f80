import { secretValue } from '../git/credentials.js';
import type { KubeObject, ReadonlyStore } from '../kube/informer/index.js';
import { objectKey } from '../kube/informer/index.js';
import { gitTargets } from '../server/webhook/git-targets.js';
import { SECRET_KEYS, type Provider, type WebhookSecrets } from '../server/webhook/providers.js';
import type { PushEvent } from '../server/webhook/push-event.js';
import { pushAffects, pushedIdentities } from '../server/webhook/push-matching.js';
import { GIT_REPO_INDEX } from './informers.js';

/** The provider secrets held in the webhook Secret (base64 `data` or plain `stringData`). */
export function webhookSecretsFrom(secret: KubeObject | undefined): WebhookSecrets {
  const secrets: WebhookSecrets = {};
  if (!secret) return secrets;
  for (const [provider, key] of Object.entries(SECRET_KEYS) as Array<[Provider, string]>) {
    const value = secretValue(secret, key);
    if (value) secrets[provider] = value;
  }
  return secrets;
}

/**
 * Enqueues exactly the ApplicationSets a push affects: candidates come from the index of git generator
 * repositories (so a push never scans every ApplicationSet), then each candidate's generators are
 * matched on revision. Returns how many were enqueued.
 */
export function routePush(push: PushEvent, appsets: ReadonlyStore<KubeObject>, enqueue: (key: string) => void, namespaceAllowed: (namespace: string) => boolean): number {
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
