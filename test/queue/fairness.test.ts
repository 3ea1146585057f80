import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairReadyKeys } from '../../src/queue/fair-ready-keys.js';
import { MAX_BULLMQ_PRIORITY, TenantLoad } from '../../src/queue/tenant-load.js';
import { tenantOf } from '../../src/queue/tenant.js';

describe('fair sharing between tenants', () => {
  it('the tenant of a key is its namespace', () => {
    assert.equal(tenantOf('team-a/app'), 'team-a');
    assert.equal(tenantOf('bare'), '');
  });

  it('FairReadyKeys takes keys round-robin across tenants, FIFO within one, collapsing repeats', () => {
    const ready = new FairReadyKeys();
    for (let i = 0; i < 4; i++) ready.add(`noisy/${i}`, i);
    ready.add('quiet/q', 10);
    ready.add('noisy/0', 99);
    ready.add('other/o', 11);
    assert.equal(ready.size, 6);
    assert.ok(ready.has('quiet/q'));
    const order: string[] = [];
    for (let next = ready.take(); next; next = ready.take()) order.push(next[0]);
    assert.deepEqual(order, ['noisy/0', 'quiet/q', 'other/o', 'noisy/1', 'noisy/2', 'noisy/3']);
    assert.equal(ready.size, 0);
  });

  it('TenantLoad gives a quiet tenant priority over a busy one, and forgives a tenant that calmed down', () => {
    let now = 0;
    const load = new TenantLoad(1_000, () => now);
    let noisy = 0;
    for (let i = 0; i < 5_000; i++) noisy = load.priorityForAdd(`noisy/${i}`);
    assert.ok(noisy >= 4_000, `noisy priority ${noisy}`);
    assert.equal(load.priorityForAdd('quiet/q'), 1);
    now += 20_000; // 20 half-lives
    assert.equal(load.priorityForAdd('noisy/again'), 1);
  });

  it('TenantLoad priorities stay within what BullMQ accepts', () => {
    const load = new TenantLoad(1e12, () => 0);
    let priority = 0;
    for (let i = 0; i < MAX_BULLMQ_PRIORITY + 10; i += 1) priority = load.priorityForAdd('t/x');
    assert.equal(priority, MAX_BULLMQ_PRIORITY);
    assert.throws(() => new TenantLoad(0), /half-life/);
  });
});
