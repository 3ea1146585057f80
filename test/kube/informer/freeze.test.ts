import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepFreeze, SHARED_EMPTY_ARRAY, SHARED_EMPTY_OBJECT, SharingFreezer } from '../../../src/kube/informer/freeze.js';

/** An Application as the API server sends it: managedFields full of `{}` leaves, repeated long strings. */
function application(name: string): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name,
        namespace: 'bench-informer',
        creationTimestamp: '2026-11-29T10:46:29Z',
        managedFields: [
          {
            apiVersion: 'argoproj.io/v1alpha1',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { '.': {}, 'f:destination': { '.': {}, 'f:server': {} }, 'f:project': {} } },
            manager: 'unknown',
            operation: 'Update',
            time: '2026-11-29T10:46:29Z',
          },
        ],
        finalizers: [],
      },
      spec: { project: 'default', source: { repoURL: 'https://example.test/apps.git', ignore: [null, 0, false, ''] }, matrix: [[], [{}], [{ x: 1 }]] },
    }),
  ) as Record<string, unknown>;
}

/** Every object and array reachable from `root`, with its path. */
function containers(root: unknown, path = '$', found: Array<[string, object]> = []): Array<[string, object]> {
  if (typeof root !== 'object' || root === null) return found;
  found.push([path, root]);
  for (const [key, child] of Object.entries(root)) containers(child, `${path}.${key}`, found);
  return found;
}

const at = (root: unknown, ...keys: Array<string | number>): unknown =>
  keys.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);

describe('SharingFreezer', () => {
  it('keeps the content and key order exactly while freezing every object and array at any depth', () => {
    const freezer = new SharingFreezer();
    const object = application('a');
    const before = JSON.stringify(object);
    assert.equal(freezer.freeze(object), object, 'frozen in place');
    assert.equal(JSON.stringify(object), before);
    const all = containers(object);
    assert.ok(all.length >= 20, `walked ${all.length} objects and arrays`);
    for (const [path, value] of all) {
      assert.ok(Object.isFrozen(value), `${path} is frozen`);
      const writable = value as Record<string, unknown>;
      assert.throws(() => (writable['added'] = 1), TypeError, `adding to ${path}`);
      const first = Object.keys(value)[0];
      if (first !== undefined) assert.throws(() => delete writable[first], TypeError, `deleting from ${path}`);
    }
  });

  it('shares one frozen empty object and one frozen empty array across all objects', () => {
    const freezer = new SharingFreezer();
    const [a, b] = [application('a'), application('b')];
    freezer.freeze(a);
    freezer.freeze(b);
    const leaf = (o: unknown): unknown => at(o, 'metadata', 'managedFields', 0, 'fieldsV1', 'f:spec', 'f:project');
    assert.equal(leaf(a), SHARED_EMPTY_OBJECT);
    assert.equal(leaf(b), SHARED_EMPTY_OBJECT);
    assert.equal(at(a, 'metadata', 'finalizers'), SHARED_EMPTY_ARRAY);
    assert.equal(at(b, 'spec', 'matrix', 0), SHARED_EMPTY_ARRAY);
    assert.equal(at(b, 'spec', 'matrix', 1, 0), SHARED_EMPTY_OBJECT);
    assert.notEqual(at(a, 'spec', 'matrix', 2, 0), at(b, 'spec', 'matrix', 2, 0), 'non-empty objects keep their identity');
    assert.ok(Object.isFrozen(SHARED_EMPTY_OBJECT) && Object.isFrozen(SHARED_EMPTY_ARRAY));
    assert.throws(() => ((SHARED_EMPTY_OBJECT as Record<string, unknown>)['x'] = 1), TypeError);
    assert.throws(() => (SHARED_EMPTY_ARRAY as unknown as unknown[]).push(1), TypeError);
  });

  it('replaces only empties that nothing could tell apart: symbols, hidden properties and other prototypes stay', () => {
    const tagged = Object.defineProperty({}, 'hidden', { value: 1, enumerable: false });
    const symbolic = { [Symbol('s')]: 1 };
    const bare = Object.create(null) as object;
    const extendedArray = Object.assign([], { note: 'x' });
    const root = { tagged, symbolic, bare, extendedArray, plain: {} };
    deepFreeze(root);
    assert.equal(root.tagged, tagged);
    assert.equal(root.symbolic, symbolic);
    assert.equal(root.bare, bare);
    assert.equal(root.extendedArray, extendedArray);
    assert.equal(root.plain, SHARED_EMPTY_OBJECT);
    for (const value of [tagged, symbolic, bare, extendedArray]) assert.ok(Object.isFrozen(value));
  });

  it('freezes objects that are not plain data without writing to them (no setter runs)', () => {
    let setterCalls = 0;
    class Holder {
      child = { empty: {}, text: 'a string long enough to pool' };
      set watched(value: unknown) {
        setterCalls++;
        void value;
      }
      get watched(): unknown {
        return {};
      }
    }
    const holder = new Holder();
    const root = { holder, copy: 'a string long enough to pool' };
    new SharingFreezer().freeze(root);
    assert.equal(setterCalls, 0);
    assert.ok(Object.isFrozen(holder) && Object.isFrozen(holder.child) && Object.isFrozen(holder.child.empty));
    assert.notEqual(holder.child.empty, SHARED_EMPTY_OBJECT, 'inside a non-plain object nothing is rewritten');
  });

  it('ends on a cyclic structure (a transform could make one) with everything frozen', () => {
    const ring: Record<string, unknown> = { name: 'ring' };
    ring['self'] = ring;
    const chain: Record<string, unknown> = { ring };
    let tail = chain;
    for (let i = 0; i < 500; i++) tail = tail['next'] = { next: ring, empty: {} };
    deepFreeze(chain);
    for (const value of [ring, chain, tail]) assert.ok(Object.isFrozen(value));
  });

  it('takes an already frozen subtree as it is, and freezes an empty root in place', () => {
    const kept = Object.freeze({ inner: {} });
    const root = { kept, empty: {} };
    deepFreeze(root);
    assert.equal(root.kept, kept);
    assert.equal(Object.isFrozen(kept.inner), false, 'a frozen subtree is trusted, not walked');
    const emptyRoot = {};
    assert.equal(new SharingFreezer().freeze(emptyRoot), emptyRoot);
    assert.ok(Object.isFrozen(emptyRoot));
  });

  it('pools strings without changing any value, also after forget()', () => {
    const freezer = new SharingFreezer();
    const objects = Array.from({ length: 5000 }, (_, i) => ({
      id: `unique-${i}-${'x'.repeat(20)}`,
      shared: 'https://example.test/apps.git',
      list: ['https://example.test/apps.git'],
    }));
    objects.forEach((o, i) => {
      if (i === 2500) freezer.forget();
      freezer.freeze(o);
    });
    objects.forEach((o, i) =>
      assert.deepEqual(o, { id: `unique-${i}-${'x'.repeat(20)}`, shared: 'https://example.test/apps.git', list: ['https://example.test/apps.git'] }),
    );
  });

  it('pools strings that share a slot of its recent front without mixing them up', () => {
    // Same length and the same characters where the slot is taken from; they differ only in their first one.
    const texts = ['A', 'B', 'C', 'D'].map((first) => `${first}${'y'.repeat(19)}`);
    const freezer = new SharingFreezer();
    const objects = Array.from({ length: 40 }, (_, i) => ({ value: texts[i % 4] as string, again: texts[(i * 7) % 4] as string }));
    for (const object of objects) freezer.freeze(object);
    objects.forEach((object, i) => assert.deepEqual(object, { value: texts[i % 4], again: texts[(i * 7) % 4] }));
  });
});
