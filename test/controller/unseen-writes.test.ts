import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTENT_HASH_ANNOTATION } from '../../src/controller/apply-intent.js';
import type { Application } from '../../src/controller/objects.js';
import { observeWriteEchoes, trackWrites, UnseenWrites } from '../../src/controller/unseen-writes.js';
import type { ApplicationWriter } from '../../src/controller/writes/application-writer.js';
import type { KubeObject } from '../../src/kube/informer/index.js';

const withHash = (hash: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'a', namespace: 'ns', annotations: { [INTENT_HASH_ANNOTATION]: hash }, ...extra } });
const never = new AbortController().signal;

function application(name: string, hash: string, owner = 'set'): Application {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', annotations: { [INTENT_HASH_ANNOTATION]: hash }, ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: owner, uid: 'u', controller: true }] },
    spec: {},
  };
}

describe('unseen writes: a run plans only once the cache shows its ApplicationSet’s last writes', () => {
  it('counts an apply as seen once the cache holds the object with its intent hash, not before', () => {
    const unseen = new UnseenWrites();
    unseen.sending('ns/a', 'ns/set', 'h2');
    unseen.observe('ns/a', withHash('h1'));
    assert.equal(unseen.pending('ns/set'), 1, 'an event of the object before the write (Argo CD status churn) is not the echo');
    unseen.observe('ns/b', withHash('h2'));
    assert.equal(unseen.pending('ns/set'), 1, 'another object');
    unseen.observe('ns/a', withHash('h2'));
    assert.equal(unseen.pending('ns/set'), 0);
  });

  it('counts a delete as seen once the object is gone or being deleted (a finalizer may hold it)', () => {
    const unseen = new UnseenWrites();
    unseen.sending('ns/a', 'ns/set', undefined);
    unseen.sending('ns/b', 'ns/set', undefined);
    unseen.observe('ns/a', withHash('h1'));
    assert.equal(unseen.pending('ns/set'), 2);
    unseen.observe('ns/a', withHash('h1', { deletionTimestamp: '2026-11-30T00:00:00Z' }));
    unseen.observe('ns/b', undefined);
    assert.equal(unseen.pending('ns/set'), 0);
  });

  it('forgets a failed write, and keeps ApplicationSets apart', () => {
    const unseen = new UnseenWrites();
    unseen.sending('ns/a', 'ns/one', 'h');
    unseen.sending('ns/b', 'ns/two', 'h');
    unseen.failed('ns/a');
    assert.equal(unseen.pending('ns/one'), 0);
    assert.equal(unseen.pending('ns/two'), 1);
  });

  it('settles when the echo arrives, and gives up (forgetting) after the timeout', async () => {
    const unseen = new UnseenWrites();
    unseen.sending('ns/a', 'ns/set', 'h');
    setTimeout(() => unseen.observe('ns/a', withHash('h')), 30);
    assert.equal(await unseen.settled('ns/set', 5_000, never), true);
    unseen.sending('ns/a', 'ns/set', 'h3');
    const started = performance.now();
    assert.equal(await unseen.settled('ns/set', 50, never), false, 'a write whose echo never comes (a server-side no-op)');
    assert.ok(performance.now() - started >= 45);
    assert.equal(unseen.pending('ns/set'), 0, 'forgotten, so the next run does not wait for it again');
  });

  it('does not keep a run waiting for a write sent longer ago than the timeout', async () => {
    let now = 0;
    const unseen = new UnseenWrites(() => now);
    unseen.sending('ns/a', 'ns/set', 'h');
    now = 10_000;
    assert.equal(await unseen.settled('ns/set', 5_000, never), false);
    assert.equal(unseen.pending('ns/set'), 0);
  });

  it('forgets writes older than a minute once a thousand more were sent', () => {
    let now = 0;
    const unseen = new UnseenWrites(() => now);
    unseen.sending('ns/old', 'ns/old-set', 'h');
    now = 61_000;
    for (let i = 0; i < 1_000; i++) unseen.sending(`ns/app-${i}`, 'ns/set', 'h');
    assert.equal(unseen.pending('ns/old-set'), 0);
    assert.equal(unseen.pending('ns/set'), 1_000);
  });

  it('the tracking writer records applies and deletes under the owning ApplicationSet, and forgets a failed one', async () => {
    const unseen = new UnseenWrites();
    const calls: string[] = [];
    const inner: ApplicationWriter = {
      apply: (intent) => (calls.push(`apply ${intent.metadata.name}`), intent.metadata.name === 'bad' ? Promise.reject(new Error('422')) : Promise.resolve()),
      delete: (live) => (calls.push(`delete ${live.metadata.name}`), Promise.resolve()),
    };
    // The cache holds `reverted` with the hash about to be applied again: a hand edit being reverted.
    const cache = new Map<string, KubeObject>([['ns/reverted', withHash('h9')]]);
    const writer = trackWrites(inner, unseen, (namespace, name) => cache.get(`${namespace}/${name}`));
    await writer.apply(application('a', 'h1'));
    await writer.delete(application('b', 'h0'));
    await assert.rejects(writer.apply(application('bad', 'h1')), /422/);
    await writer.apply(application('reverted', 'h9'));
    assert.deepEqual(calls, ['apply a', 'delete b', 'apply bad', 'apply reverted']);
    assert.equal(unseen.pending('ns/set'), 2, 'a and b; not the failed one, nor the one whose echo may never come');
    const handlers: Record<string, (...args: unknown[]) => void> = {};
    observeWriteEchoes({ on: ((event: string, handler: (...args: unknown[]) => void) => void (handlers[event] = handler)) as never }, unseen);
    handlers.update?.({}, { metadata: { name: 'a', namespace: 'ns', annotations: { [INTENT_HASH_ANNOTATION]: 'h1' } } });
    handlers.delete?.({ metadata: { name: 'b', namespace: 'ns' } });
    assert.equal(unseen.pending('ns/set'), 0);
  });
});
