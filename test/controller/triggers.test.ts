import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTENT_HASH_ANNOTATION } from '../../src/controller/plan/apply-intent.js';
import {
  applicationSetUpdateNeedsReconcile,
  applicationUpdateNeedsReconcile,
  REFRESH_ANNOTATION,
  type Watched,
} from '../../src/controller/routing/triggers.js';

const appset: Watched & { status?: unknown } = {
  metadata: { labels: { team: 'a' }, annotations: { note: 'x' } },
  spec: { generators: [{ list: { elements: [] } }] },
};
const edit = (change: Partial<Watched['metadata']>, spec: unknown = appset.spec): Watched => ({ metadata: { ...appset.metadata, ...change }, spec });

describe('reconcile triggers', () => {
  it('reconciles an ApplicationSet on spec, label, annotation, finalizer and deletion changes', () => {
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({}, { generators: [] })), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({ labels: { team: 'b' } })), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({ annotations: { note: 'y' } })), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({ finalizers: ['f'] })), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({ deletionTimestamp: '2026-01-01T00:00:00Z' })), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, edit({ annotations: { note: 'x', [REFRESH_ANNOTATION]: 'true' } })), true, 'a refresh request');
  });

  it('ignores status-only changes and the removal of the refresh annotation', () => {
    assert.equal(applicationSetUpdateNeedsReconcile(appset, { ...edit({}), status: { conditions: [] } } as Watched), false);
    const refreshing = edit({ annotations: { note: 'x', [REFRESH_ANNOTATION]: 'true' } });
    assert.equal(applicationSetUpdateNeedsReconcile(refreshing, appset), false);
    assert.equal(applicationSetUpdateNeedsReconcile(refreshing, edit({ annotations: { note: 'changed' } })), true, 'removal plus another change');
  });

  it('reconciles for hand edits of an owned Application, not for its status churn', () => {
    const app = { metadata: { labels: { a: '1' } }, spec: { project: 'default' }, status: { sync: { status: 'Synced' } } };
    assert.equal(applicationUpdateNeedsReconcile(app, { ...app, status: { sync: { status: 'OutOfSync' } } }), false);
    assert.equal(applicationUpdateNeedsReconcile(app, { ...app, spec: { project: 'other' } }), true);
    assert.equal(applicationUpdateNeedsReconcile(app, { ...app, metadata: { labels: {} } }), true);
  });

  it("does not reconcile for the controller's own write landing, which moves the intent hash, but does for a hand edit", () => {
    const applied = { metadata: { annotations: { [INTENT_HASH_ANNOTATION]: 'h1' } }, spec: { source: { targetRevision: 'v1' } } };
    const ours = { metadata: { annotations: { [INTENT_HASH_ANNOTATION]: 'h2' } }, spec: { source: { targetRevision: 'v2' } } };
    assert.equal(applicationUpdateNeedsReconcile(applied, ours), false, 'the template changed and the controller applied it');
    const handEdit = { ...applied, spec: { source: { targetRevision: 'hand' } } };
    assert.equal(applicationUpdateNeedsReconcile(applied, handEdit), true, 'a hand edit keeps the old hash');
    const hashRemoved = { metadata: { annotations: {} }, spec: applied.spec };
    assert.equal(applicationUpdateNeedsReconcile(applied, hashRemoved), true, 'removing the hash is an edit to revert');
  });

  it('with progressive syncs, reconciles for the health, sync and operation changes a rollout waits for, and for rollout status changes', () => {
    const app = {
      metadata: {},
      spec: {},
      status: { sync: { status: 'OutOfSync' }, health: { status: 'Missing' }, operationState: { phase: 'Running', startedAt: 't1' } },
    };
    const changed = (status: Record<string, unknown>): Watched => ({ ...app, status: { ...app.status, ...status } });
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ sync: { status: 'Synced' } }), true), true);
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ health: { status: 'Healthy' } }), true), true);
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ operationState: { phase: 'Succeeded', startedAt: 't1' } }), true), true);
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ operationState: { phase: 'Running', startedAt: 't2' } }), true), true);
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ reconciledAt: 'now' }), true), false, 'status churn a rollout does not read');
    assert.equal(applicationUpdateNeedsReconcile(app, changed({ sync: { status: 'Synced' } })), false, 'off without the flag');
    const appset = { metadata: {}, spec: {}, status: { applicationStatus: [{ application: 'a', status: 'Waiting' }] } };
    const moved = { ...appset, status: { applicationStatus: [{ application: 'a', status: 'Pending' }] } };
    assert.equal(applicationSetUpdateNeedsReconcile(appset, moved, true), true);
    assert.equal(applicationSetUpdateNeedsReconcile(appset, moved), false);
  });
});
