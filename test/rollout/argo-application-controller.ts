import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** An Application as the stand-in reads it. */
interface LiveApp {
  metadata: { name: string };
  spec: { syncPolicy?: { automated?: unknown } };
  operation?: Record<string, unknown>;
  status?: { sync?: { status?: string }; health?: { status?: string }; operationState?: { phase?: string; startedAt?: string } };
}

/** One sync the stand-in carried out: which Application, the operation it was asked for, when it started and ended. */
export interface SyncRecord {
  readonly name: string;
  readonly operation: Record<string, unknown>;
  readonly startedAt: number;
  finishedAt?: number;
}

/**
 * Plays Argo CD's application controller for the rollout tests, on the real API server: a new Application is
 * compared (OutOfSync at revision r1, Missing); an `operation` is taken up (Running, Progressing) and finished
 * after `syncMs` (operation removed; Succeeded, Synced, and Healthy unless the test said it never turns healthy).
 */
export class ArgoApplicationController {
  readonly syncs: SyncRecord[] = [];
  /** Applications whose sync succeeds but whose health stays Degraded. */
  readonly neverHealthy = new Set<string>();
  private readonly custom: CustomObjectsApi;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    kc: KubeConfig,
    private readonly namespace: string,
    private readonly syncMs = 400,
  ) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
  }

  /** Starts polling the namespace's Applications. */
  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        await this.step().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Writes an Application's status as Argo CD's controller would (through the status subresource). */
  async setStatus(name: string, status: Record<string, unknown>): Promise<void> {
    await this.custom.patchNamespacedCustomObjectStatus(
      { group: 'argoproj.io', version: 'v1alpha1', namespace: this.namespace, plural: 'applications', name, body: { status } },
      mergePatch,
    );
  }

  private async step(): Promise<void> {
    const list = (await this.custom.listNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: this.namespace,
      plural: 'applications',
    })) as {
      items: LiveApp[];
    };
    for (const app of list.items) await this.advance(app);
  }

  private async advance(app: LiveApp): Promise<void> {
    const name = app.metadata.name;
    const phase = app.status?.operationState?.phase;
    if (!app.status?.sync?.status) {
      await this.setStatus(name, { sync: { status: 'OutOfSync', revision: 'r1' }, health: { status: 'Missing' } });
    } else if (app.operation && phase !== 'Running') {
      this.syncs.push({ name, operation: app.operation, startedAt: Date.now() });
      await this.setStatus(name, {
        operationState: { phase: 'Running', startedAt: new Date().toISOString(), operation: app.operation },
        health: { status: 'Progressing' },
      });
    } else if (phase === 'Running') {
      const record = this.syncs.findLast((s) => s.name === name);
      if (!record || Date.now() - record.startedAt < this.syncMs) return;
      // Argo CD writes both in one update; with the status subresource here, the status goes first, so no reader
      // ever sees the operation gone while the sync still looks Running.
      await this.setStatus(name, {
        operationState: { ...app.status.operationState, phase: 'Succeeded', finishedAt: new Date().toISOString() },
        sync: { status: 'Synced', revision: 'r1' },
        health: { status: this.neverHealthy.has(name) ? 'Degraded' : 'Healthy' },
      });
      await this.custom.patchNamespacedCustomObject(
        { group: 'argoproj.io', version: 'v1alpha1', namespace: this.namespace, plural: 'applications', name, body: { operation: null } },
        mergePatch,
      );
      record.finishedAt = Date.now();
    }
  }
}
