import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planChanges, type PlanInput } from '../../src/controller/plan/plan.js';
import type { Application } from '../../src/model/objects.js';
import { appliedLive, appset, desired, liveFrom } from './application-fixtures.js';

function plan(desiredApps: Application[], liveApps: Application[], overrides: Partial<PlanInput> = {}) {
  const byName = new Map(liveApps.map((app) => [app.metadata.name, app]));
  return planChanges({
    appset,
    desired: desiredApps,
    owned: liveApps.filter((app) => app.metadata.ownerReferences?.some((ref) => ref.uid === appset.uid)),
    lookup: (name) => byName.get(name),
    policy: 'sync',
    rules: {},
    guard: { maxDeleteShare: 0.5, allowMassDeletion: false },
    ...overrides,
  });
}

const names = (apps: readonly Application[]): string[] => apps.map((a) => a.metadata.name).sort();

describe('planChanges', () => {
  it('creates what is missing, leaves what is equal, updates what drifted, deletes what is no longer generated', () => {
    const [a, b, c] = [desired('a'), desired('b'), desired('c')];
    const drifted = liveFrom(appliedLive(b), (live) => (live.spec.source.path = 'hand-edited'));
    const live = [appliedLive(a), drifted, appliedLive(desired('d')), appliedLive(desired('e'))];
    const result = plan([a, b, c], live);
    assert.deepEqual(names(result.create), ['c']);
    assert.deepEqual(names(result.update), ['b']);
    assert.deepEqual(result.unchanged, ['a']);
    assert.deepEqual(names(result.delete), ['d', 'e']);
    assert.equal(result.deletionRefused, undefined);
    assert.equal((result.update[0]?.spec.source as { path: string }).path, 'b', 'the hand edit is reverted');
  });

  it('never takes over an Application someone else controls, or that nobody controls', () => {
    const other = liveFrom(
      desired('shared'),
      (live) =>
        (live.metadata.ownerReferences = [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'other', uid: 'uid-other', controller: true }]),
    );
    const orphan = liveFrom(desired('orphan'), (live) => delete live.metadata.ownerReferences);
    const result = plan([desired('shared'), desired('orphan')], [other, orphan]);
    assert.deepEqual(result.create, []);
    assert.deepEqual(result.update, []);
    assert.deepEqual(result.conflicts, [
      { name: 'shared', owner: 'ApplicationSet team-a/other (uid uid-other)' },
      { name: 'orphan', owner: 'nobody (not controlled by any ApplicationSet)' },
    ]);
  });

  it('treats an ApplicationSet recreated under the same name as another owner (UIDs, not names)', () => {
    const previous = liveFrom(desired('a'), (live) => live.metadata.ownerReferences?.forEach((ref) => (ref.uid = 'uid-of-deleted-appset')));
    assert.equal(plan([desired('a')], [previous]).conflicts.length, 1);
  });

  it('follows each policy', () => {
    const drifted = liveFrom(appliedLive(desired('a')), (live) => (live.spec.source.path = 'x'));
    const stale = appliedLive(desired('gone'));
    const cases = { sync: [1, 1], 'create-only': [0, 0], 'create-update': [1, 0], 'create-delete': [0, 1] } as const;
    for (const [policy, [updates, deletes]] of Object.entries(cases)) {
      const result = plan([desired('a'), desired('b')], [drifted, stale], { policy: policy as PlanInput['policy'] });
      assert.equal(result.create.length, 1, `${policy} always creates`);
      assert.equal(result.update.length, updates, `${policy} updates`);
      assert.equal(result.delete.length, deletes, `${policy} deletes`);
      assert.equal(result.updatesSkippedByPolicy.length, 1 - updates);
      assert.equal(result.deletesSkippedByPolicy.length, 1 - deletes);
    }
  });

  it('refuses to delete everything when the generators suddenly return nothing', () => {
    const result = plan([], [appliedLive(desired('a')), appliedLive(desired('b'))]);
    assert.deepEqual(result.delete, []);
    assert.deepEqual(result.deletionRefused, { wanted: 2, owned: 2, allowed: 0 });
    const optedIn = plan([], [appliedLive(desired('a'))], { guard: { maxDeleteShare: 0.5, allowMassDeletion: true } });
    assert.deepEqual(names(optedIn.delete), ['a']);
  });

  it('refuses to delete more than the allowed share, but always allows one deletion among survivors', () => {
    const live = ['a', 'b', 'c', 'd'].map((n) => appliedLive(desired(n)));
    assert.equal(plan([desired('a'), desired('b')], live).delete.length, 2, '2 of 4 is within 0.5');
    assert.deepEqual(plan([desired('a')], live).deletionRefused, { wanted: 3, owned: 4, allowed: 2 });
    assert.equal(plan([desired('new')], [appliedLive(desired('old'))]).delete.length, 1, 'a rename of a one-Application set');
  });

  it('does not delete again what is already being deleted', () => {
    const terminating = liveFrom(appliedLive(desired('gone')), (live) => (live.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'));
    assert.deepEqual(plan([desired('a')], [appliedLive(desired('a')), terminating]).delete, []);
  });

  it('does not mutate the frozen objects it is given', () => {
    const live = [appliedLive(desired('a'))];
    assert.ok(Object.isFrozen(live[0]));
    assert.doesNotThrow(() => plan([desired('a', 'changed')], live));
  });
});
