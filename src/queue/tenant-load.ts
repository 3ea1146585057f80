import { tenantOf } from './tenant.js';

/** BullMQ's largest priority (2^21); larger numbers run later. */
export const MAX_BULLMQ_PRIORITY = 2 ** 21;

/** Tenants whose load decayed below this are forgotten, so the map stays as small as the busy set. */
const FORGET_BELOW = 0.05;

/**
 * Each tenant's recent demand on the queue, as this replica sees it: an exponentially decaying count of
 * its adds (half-life `halfLifeMs`). It turns into a BullMQ priority, lower for a quieter tenant, so a
 * quiet tenant's key is taken before the backlog of a busy one. BullMQ runs equal priorities in FIFO
 * order, so tenants with equal load share in turn, and a tenant that calms down regains priority
 * within a few half-lives.
 */
export class TenantLoad {
  private readonly tenants = new Map<string, { load: number; at: number }>();
  private adds = 0;

  constructor(
    private readonly halfLifeMs = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(halfLifeMs > 0 && Number.isFinite(halfLifeMs))) throw new RangeError(`tenant load half-life must be a finite number of ms > 0, got ${halfLifeMs}`);
  }

  /** Counts one add of `key` and returns the priority for it (1 = first; grows with its tenant's load). */
  priorityForAdd(key: string): number {
    const tenant = tenantOf(key);
    const load = this.current(tenant) + 1;
    this.tenants.set(tenant, { load, at: this.now() });
    if (++this.adds % 1024 === 0) this.forgetIdle();
    return Math.min(MAX_BULLMQ_PRIORITY, Math.max(1, Math.round(load)));
  }

  /** The tenant's load now (decayed since its last add). */
  current(tenant: string): number {
    const entry = this.tenants.get(tenant);
    if (!entry) return 0;
    return entry.load * 2 ** (-(this.now() - entry.at) / this.halfLifeMs);
  }

  private forgetIdle(): void {
    for (const tenant of [...this.tenants.keys()]) if (this.current(tenant) < FORGET_BELOW) this.tenants.delete(tenant);
  }
}
