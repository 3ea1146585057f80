import type { Informer, KubeObject } from '../kube/informer/index.js';
import { objectKey } from '../kube/informer/index.js';
import { INTENT_HASH_ANNOTATION } from './apply-intent.js';
import { controllerOf, type Application } from './objects.js';
import type { ApplicationWriter } from './writes/application-writer.js';

/** A write this replica sent that its Application cache has not shown yet. */
interface Unseen {
  readonly owner: string;
  /** The intent hash the applied Application carries; undefined for a delete. */
  readonly hash: string | undefined;
  readonly sentAt: number;
}

/** How long after a write a run waits for the cache to show it before it plans anyway. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 5_000;

/** Writes whose watch event never comes (a server-side no-op) are forgotten after this long. */
const MAX_AGE_MS = 60_000;

/**
 * The Applications this replica wrote whose watch event its cache has not delivered yet, by owning
 * ApplicationSet key. A run that plans while its ApplicationSet's previous writes are still on their way
 * sees the old objects and writes them again: with two replicas, a run that followed another at once
 * re-applied up to 98 of its 100 Applications, and an update wave of 3,000 applied up to 3,463 times.
 * Waiting for the echoes instead costs the time the watch takes to deliver them.
 */
export class UnseenWrites {
  private readonly byApp = new Map<string, Unseen>();
  private readonly byOwner = new Map<string, Set<string>>();
  private sendsSincePrune = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Records a write of Application `app` (namespace/name) about to be sent for ApplicationSet `owner`. */
  sending(app: string, owner: string, hash: string | undefined): void {
    this.drop(app);
    this.byApp.set(app, { owner, hash, sentAt: this.now() });
    let apps = this.byOwner.get(owner);
    if (!apps) this.byOwner.set(owner, (apps = new Set()));
    apps.add(app);
    if (++this.sendsSincePrune >= 1_000) this.prune();
  }

  /** Forgets a write that failed: nothing may come for the cache to show. */
  failed(app: string): void {
    this.drop(app);
  }

  /**
   * Takes in one cache event of `app`: `object` is its new state, undefined once deleted. An apply is
   * seen once the cache holds the object with its intent hash; a delete once the object is gone or being
   * deleted (Argo CD's finalizer can keep it for long). Either is also settled by a deletion.
   */
  observe(app: string, object: KubeObject | undefined): void {
    const unseen = this.byApp.get(app);
    if (!unseen) return;
    const metadata = object?.metadata as { annotations?: Record<string, string>; deletionTimestamp?: string } | undefined;
    const settled = metadata === undefined || (unseen.hash === undefined ? metadata.deletionTimestamp !== undefined : metadata.annotations?.[INTENT_HASH_ANNOTATION] === unseen.hash);
    if (settled) this.drop(app);
  }

  /** How many writes for `owner` the cache has not shown. */
  pending(owner: string): number {
    return this.byOwner.get(owner)?.size ?? 0;
  }

  /**
   * Resolves once the cache shows every write sent for `owner`. A write not shown `timeoutMs` after it was
   * sent is forgotten (its echo may never come: a server-side no-op), so no run waits longer than that past
   * the write, and a run long after it does not wait at all; the run then plans on what the cache has, as
   * it would have without waiting. True if every write was seen.
   */
  async settled(owner: string, timeoutMs: number, signal: AbortSignal, pollMs = 10): Promise<boolean> {
    let allSeen = true;
    for (;;) {
      const apps = this.byOwner.get(owner);
      if (!apps) return allSeen;
      const expired = this.now() - timeoutMs;
      for (const app of [...apps]) {
        const unseen = this.byApp.get(app);
        if (unseen && (unseen.sentAt <= expired || signal.aborted)) {
          this.drop(app);
          allSeen = false;
        }
      }
      if (this.pending(owner) === 0) return allSeen;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  private drop(app: string): void {
    const unseen = this.byApp.get(app);
    if (!unseen) return;
    this.byApp.delete(app);
    const apps = this.byOwner.get(unseen.owner);
    apps?.delete(app);
    if (apps?.size === 0) this.byOwner.delete(unseen.owner);
  }

  private prune(): void {
    this.sendsSincePrune = 0;
    const oldest = this.now() - MAX_AGE_MS;
    for (const [app, unseen] of this.byApp) if (unseen.sentAt < oldest) this.drop(app);
  }
}

/** The key (namespace/name) of the ApplicationSet that controls `app`, if any. */
function ownerKeyOf(app: Application): string | undefined {
  const owner = controllerOf(app);
  return owner?.kind === 'ApplicationSet' && app.metadata.namespace ? `${app.metadata.namespace}/${owner.name}` : undefined;
}

/**
 * `writer`, recording each write in `unseen` until the cache (`cached`) shows it. Not for dry runs:
 * nothing would ever show. An apply whose intent hash the cache already holds (a hand edit reverted) is
 * not recorded: if the server already matches, no echo comes.
 */
export function trackWrites(writer: ApplicationWriter, unseen: UnseenWrites, cached: (namespace: string, name: string) => KubeObject | undefined): ApplicationWriter {
  const tracked = async (app: Application, hash: string | undefined, write: () => Promise<void>): Promise<void> => {
    const owner = ownerKeyOf(app);
    const namespace = app.metadata.namespace ?? '';
    const key = `${namespace}/${app.metadata.name}`;
    const annotations = cached(namespace, app.metadata.name)?.metadata?.annotations as Record<string, string> | undefined;
    if (owner && !(hash !== undefined && annotations?.[INTENT_HASH_ANNOTATION] === hash)) unseen.sending(key, owner, hash);
    try {
      await write();
    } catch (error) {
      unseen.failed(key);
      throw error;
    }
  };
  return {
    apply: (intent) => tracked(intent, intent.metadata.annotations?.[INTENT_HASH_ANNOTATION], () => writer.apply(intent)),
    delete: (live) => tracked(live, undefined, () => writer.delete(live)),
  };
}

/** Feeds every event of the Application cache to `unseen`. */
export function observeWriteEchoes(applications: Pick<Informer<KubeObject>, 'on'>, unseen: UnseenWrites): void {
  applications.on('add', (app) => unseen.observe(objectKey(app), app));
  applications.on('update', (_old, app) => unseen.observe(objectKey(app), app));
  applications.on('delete', (app) => unseen.observe(objectKey(app), undefined));
}
