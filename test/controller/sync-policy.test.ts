import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowsDelete, allowsUpdate, effectivePolicy } from '../../src/controller/plan/sync-policy.js';

describe('sync policy', () => {
  it('allows exactly what Argo CD allows for each policy', () => {
    const table = {
      sync: { update: true, remove: true },
      'create-only': { update: false, remove: false },
      'create-update': { update: true, remove: false },
      'create-delete': { update: false, remove: true },
    } as const;
    for (const [policy, allowed] of Object.entries(table) as Array<[keyof typeof table, (typeof table)[keyof typeof table]]>) {
      assert.equal(allowsUpdate(policy), allowed.update, `${policy} update`);
      assert.equal(allowsDelete(policy), allowed.remove, `${policy} delete`);
    }
  });

  it("uses the ApplicationSet's policy only when overrides are enabled", () => {
    assert.equal(effectivePolicy('create-only', { policy: 'sync', enablePolicyOverride: true }), 'create-only');
    assert.equal(effectivePolicy('create-only', { policy: 'sync', enablePolicyOverride: false }), 'sync');
    assert.equal(effectivePolicy(undefined, { policy: 'create-update', enablePolicyOverride: true }), 'create-update');
    assert.equal(effectivePolicy('delete-everything', { policy: 'create-only', enablePolicyOverride: true }), 'create-only');
  });
});
