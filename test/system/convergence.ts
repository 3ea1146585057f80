import { createInformer, dropManagedFields, type Informer, type KubeObject } from '../../src/kube/informer/index.js';
import { isSubset } from '../../src/controller/plan/needs-apply.js';
import type { GeneratedApplication } from '../../src/model/applicationset-types.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { createKubeTransport, type KubeTransport } from '../../src/kube/transport/transport.js';
import type { KubeConfig } from '../../src/kube/kubeconfig.js';

type LiveApp = KubeObject & {
  metadata: { name: string; uid: string; labels?: Record<string, string>; finalizers?: string[]; deletionTimestamp?: string };
  spec?: unknown;
};

/** True if `live` is what the renderer said: its spec, labels and finalizers (server-added fields aside). */
export function matchesRendered(live: LiveApp, expected: GeneratedApplication): boolean {
  if (live.metadata.deletionTimestamp) return false;
  if (!isSubset(expected.spec, live.spec)) return false;
  if (!isSubset(expected.metadata.labels ?? {}, live.metadata.labels ?? {})) return false;
  return (expected.metadata.finalizers ?? []).every((f) => live.metadata.finalizers?.includes(f));
}

/**
 * Watches the Applications of one namespace from the test process and counts how many equal the
 * expected set, so convergence is seen at the event that completes it, without listing 10,000 objects
 * in a loop. It also remembers the first UID of every name: a different UID later means the
 * Application was deleted and recreated.
 */
export class ConvergenceWatch {
  private expected = new Map<string, GeneratedApplication>();
  private readonly matching = new Set<string>();
  private readonly firstUids = new Map<string, string>();
  private readonly deletedNames = new Set<string>();
  private completedAt: number | undefined;
  private readonly informer: Informer<LiveApp>;
  private readonly transport: KubeTransport;
  private readonly path: string;

  constructor(kc: KubeConfig, namespace: string, signal: AbortSignal) {
    this.transport = createKubeTransport(kc);
    this.path = `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/applications`;
    this.informer = createInformer<LiveApp>({
      transport: this.transport,
      path: this.path,
      transform: dropManagedFields,
      signal,
    });
    this.informer.on('add', (app) => this.observe(app as LiveApp));
    this.informer.on('update', (_old, app) => this.observe(app as LiveApp));
    this.informer.on('delete', (app) => {
      this.deletedNames.add(app.metadata.name);
      this.matching.delete(app.metadata.name);
    });
  }

  /** Resolves once the first list is in. */
  ready(): Promise<void> {
    return this.informer.ready();
  }

  /** Sets what the namespace should hold from now on and re-checks the cache against it. */
  expect(expected: Map<string, GeneratedApplication>): void {
    this.expected = expected;
    this.completedAt = undefined;
    this.matching.clear();
    for (const app of this.informer.store.list()) this.observe(app as LiveApp);
  }

  /** How many expected Applications are equal to the expectation now. */
  get matched(): number {
    return this.matching.size;
  }

  /**
   * How many expected Applications equal the expectation on the server now, from a fresh list rather than
   * the watch's cache: after an API server restart the watch can lag the server by a whole backoff and relist.
   */
  async matchedOnServer(): Promise<number> {
    const list = await this.transport.request<{ items: LiveApp[] }>({ method: 'GET', path: this.path });
    return list.items.filter((app) => {
      const expected = this.expected.get(app.metadata.name);
      return expected !== undefined && matchesRendered(app, expected);
    }).length;
  }

  /** Objects cached that the expectation does not name. */
  extras(): string[] {
    return this.informer.store
      .list()
      .map((app) => app.metadata.name)
      .filter((name) => !this.expected.has(name));
  }

  /** Waits until every expected Application matches and nothing else is there; returns when (performance.now()) that happened. */
  async converged(timeoutMs: number, what = 'convergence'): Promise<number> {
    await waitFor(() => this.completedAt !== undefined && this.extras().length === 0, {
      what: `${what} (${this.matched}/${this.expected.size} match, ${this.extras().length} unexpected)`,
      timeoutMs,
      intervalMs: 50,
    });
    return this.completedAt ?? performance.now();
  }

  /** Names seen with a UID other than the first one seen (deleted and recreated), and names deleted. */
  recreated(): { changedUid: string[]; deleted: string[] } {
    const changedUid = this.informer.store
      .list()
      .filter((app) => this.firstUids.get(app.metadata.name) !== app.metadata.uid)
      .map((app) => app.metadata.name);
    return { changedUid, deleted: [...this.deletedNames] };
  }

  /** The informer's own state (relists, last contact), for reports. */
  health(): ReturnType<Informer<LiveApp>['health']> {
    return this.informer.health();
  }

  private observe(app: LiveApp): void {
    const name = app.metadata.name;
    if (!this.firstUids.has(name)) this.firstUids.set(name, app.metadata.uid);
    const expected = this.expected.get(name);
    if (expected && matchesRendered(app, expected)) this.matching.add(name);
    else this.matching.delete(name);
    if (this.expected.size > 0 && this.matching.size === this.expected.size && this.completedAt === undefined) this.completedAt = performance.now();
    else if (this.matching.size < this.expected.size) this.completedAt = undefined;
  }
}
