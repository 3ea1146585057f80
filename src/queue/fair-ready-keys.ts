import { tenantOf } from './tenant.js';

/**
 * The keys due now, one FIFO per tenant, taken round-robin across tenants: a tenant with thousands of
 * due keys gets one start per turn like a tenant with one, so it cannot starve the others. Within a
 * tenant, keys run in the order they became due.
 */
export class FairReadyKeys {
  /** Tenant → its due keys with the time each became due; Map order is the round-robin order. */
  private readonly tenants = new Map<string, Map<string, number>>();
  private readonly tenantByKey = new Map<string, string>();

  /** Due keys across all tenants. */
  get size(): number {
    return this.tenantByKey.size;
  }

  /** True if `key` is due and waiting. */
  has(key: string): boolean {
    return this.tenantByKey.has(key);
  }

  /** Makes `key` due since `dueAt`, unless it is already (adds of a waiting key collapse). */
  add(key: string, dueAt: number): void {
    if (this.tenantByKey.has(key)) return;
    const tenant = tenantOf(key);
    let keys = this.tenants.get(tenant);
    if (!keys) this.tenants.set(tenant, (keys = new Map<string, number>()));
    keys.set(key, dueAt);
    this.tenantByKey.set(key, tenant);
  }

  /** Takes the next key: the oldest of the tenant whose turn it is; that tenant then goes last. */
  take(): [key: string, dueAt: number] | undefined {
    const next = this.tenants.entries().next();
    if (next.done) return undefined;
    const [tenant, keys] = next.value;
    const [key, dueAt] = keys.entries().next().value as [string, number];
    keys.delete(key);
    this.tenantByKey.delete(key);
    this.tenants.delete(tenant);
    if (keys.size > 0) this.tenants.set(tenant, keys); // back of the line
    return [key, dueAt];
  }
}
