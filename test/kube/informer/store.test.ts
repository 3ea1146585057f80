import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Store } from '../../../src/kube/informer/store.js';
import type { KubeObject } from '../../../src/kube/informer/kube-object.js';

function app(namespace: string, name: string, resourceVersion: string, ownerUid?: string): KubeObject {
  const ownerReferences = ownerUid ? [{ uid: ownerUid, kind: 'ApplicationSet', name: 'owner' }] : [];
  return { kind: 'Application', metadata: { namespace, name, resourceVersion, ownerReferences } };
}

const byOwner = (o: KubeObject): string[] => ((o.metadata?.ownerReferences ?? []) as Array<{ uid: string }>).map((r) => r.uid);

describe('Store', () => {
  it('indexes by namespace and by custom functions, and follows updates and deletes', () => {
    const store = new Store<KubeObject>({ owner: byOwner });
    store.upsert(app('a', 'one', '1', 'set-1'));
    store.upsert(app('a', 'two', '2', 'set-1'));
    store.upsert(app('b', 'one', '3', 'set-2'));
    assert.deepEqual(
      store
        .byIndex('owner', 'set-1')
        .map((o) => o.metadata?.name)
        .sort(),
      ['one', 'two'],
    );
    assert.deepEqual(
      store.listByNamespace('b').map((o) => o.metadata?.name),
      ['one'],
    );
    store.upsert(app('a', 'two', '4', 'set-2'));
    assert.deepEqual(
      store.byIndex('owner', 'set-1').map((o) => o.metadata?.name),
      ['one'],
    );
    assert.equal(store.byIndex('owner', 'set-2').length, 2);
    store.remove(app('a', 'one', '5'));
    assert.deepEqual(store.byIndex('owner', 'set-1'), []);
    assert.equal(store.getByName('a', 'one'), undefined);
    assert.equal(store.get('b/one')?.metadata?.resourceVersion, '3');
    assert.equal(store.size, 2);
  });

  it('replace reports adds, changed objects as updates with the old one, and missing objects as deletes', () => {
    const store = new Store<KubeObject>();
    store.upsert(app('a', 'kept', '1'));
    store.upsert(app('a', 'changed', '2'));
    store.upsert(app('a', 'gone', '3'));
    const changes = store.replace([app('a', 'kept', '1'), app('a', 'changed', '7'), app('a', 'new', '8')]);
    const summary = changes.map(
      (c) =>
        `${c.type} ${c.object.metadata?.name}@${c.object.metadata?.resourceVersion}${c.type === 'update' ? ` from ${c.old.metadata?.resourceVersion}` : ''}`,
    );
    assert.deepEqual(summary, ['update changed@7 from 2', 'add new@8', 'delete gone@3']);
    assert.deepEqual(store.keys().sort(), ['a/changed', 'a/kept', 'a/new']);
  });

  it('keys cluster-scoped objects by name and hands out deeply frozen objects', () => {
    const store = new Store<KubeObject>();
    store.upsert({ metadata: { name: 'cluster-wide', resourceVersion: '1', labels: { a: 'b' } } });
    const stored = store.get('cluster-wide');
    assert.ok(stored);
    assert.ok(Object.isFrozen(stored) && Object.isFrozen(stored.metadata) && Object.isFrozen(stored.metadata?.labels));
    assert.deepEqual(store.listByNamespace('').length, 1);
  });

  it('rejects bad configuration and objects it cannot key, naming the problem', () => {
    assert.throws(() => new Store<KubeObject>({ namespace: () => [] }), /"namespace" is built in/);
    assert.throws(() => new Store<KubeObject>().byIndex('owner', 'x'), /no index named "owner"/);
    assert.throws(() => new Store<KubeObject>().upsert({ metadata: {} }), /without metadata.name/);
  });
});
