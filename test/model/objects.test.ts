import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitKey, keyOf } from '../../src/model/object-key.js';
import { controllingApplicationSet } from '../../src/model/objects.js';

describe('the one reading of owners and keys', () => {
  const owned = (ref: Record<string, unknown>) => ({ metadata: { name: 'app', ownerReferences: [ref] as never } });

  it('finds the controlling ApplicationSet of argoproj.io, and nothing of another group or without controller', () => {
    const ours = { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'u1', controller: true };
    assert.equal(controllingApplicationSet(owned(ours))?.uid, 'u1');
    assert.equal(controllingApplicationSet(owned({ ...ours, apiVersion: 'example.com/v1' })), undefined);
    assert.equal(controllingApplicationSet(owned({ ...ours, controller: false })), undefined);
    assert.equal(controllingApplicationSet(owned({ ...ours, kind: 'Deployment' })), undefined);
    assert.equal(controllingApplicationSet({ metadata: {} }), undefined);
  });

  it('keys namespaced and cluster-scoped objects and splits them back', () => {
    assert.equal(keyOf('team-a', 'apps'), 'team-a/apps');
    assert.equal(keyOf(undefined, 'cluster-wide'), 'cluster-wide');
    assert.deepEqual(splitKey('team-a/apps'), { namespace: 'team-a', name: 'apps' });
    assert.deepEqual(splitKey('cluster-wide'), { namespace: '', name: 'cluster-wide' });
  });
});
