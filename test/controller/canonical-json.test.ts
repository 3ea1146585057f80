import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../src/controller/plan/canonical-json.js';
import { awkwardIntent as application } from './application-fixtures.js';
import { referenceCanonicalJson } from './intent-reference.js';

/** A small deterministic generator, so a failing value can be found again from its seed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const KEYS = ['a', 'b', 'B', 'z', '_', '', ' ', 'a0', 'a1', 'é', '\ud83d\ude00', 'key"q', '9', '10', '1.5', '-1', '__proto__', 'toJSON', 'constructor'];

/** A random JSON-like value of at most `depth` levels, with keys in random order (some of them awkward). */
function randomValue(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth <= 0 || pick < 0.35) {
    const scalars = ['text', 'line\nbreak', 'lone \ud800', '', 0, -0, 1e21, 1.5, true, false, null, Number.NaN];
    return scalars[Math.floor(next() * scalars.length)];
  }
  if (pick < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth - 1));
  // Built from JSON text, so `__proto__` becomes an own key, as JSON.parse and YAML parsers make it.
  const members = Array.from(
    { length: Math.floor(next() * 6) },
    () => [KEYS[Math.floor(next() * KEYS.length)] as string, randomValue(next, depth - 1)] as const,
  );
  return JSON.parse(`{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`) as unknown;
}

describe('canonicalJson', () => {
  it('writes the same canonical text as the first implementation (intent-reference.ts), for values of every shape', () => {
    const values: unknown[] = [
      application,
      {},
      [],
      [undefined, null, 0, -0, 1e21, 'x'],
      { b: undefined, a: [[], {}], '\u2028': 'line separator', 'key"quote': '\\' },
      { Z: 1, a: 2, _: 3, '10': 4, '9': 5, é: 6, '\ud83d\ude00': 7, A: { nested: [{ z: true, y: false }] } },
      'plain',
      // Strings that need JSON.stringify's escaping and strings that look as if they might.
      {
        'tab\there': 'nul\u0000 bell\u0007 unit\u001f',
        'del\u007f': 'lone \ud800 high, lone \udc00 low',
        pair: '\ud83d\ude00',
        back: 'a\\b "q"',
        '/': '</script>',
      },
      '\u2028\u2029\u00a0\uffff',
      // Keys in reverse and shuffled order, either side of the length where the sort changes method.
      ...[2, 15, 16, 17, 40].map((count) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(count - i).padStart(2, '0')}`, i]))),
      Object.fromEntries(['m', 'b', 'y', 'a', 'B', 'z', 'c', 'a1', 'a0', '', ' '].map((key, i) => [key, i])),
      42,
      null,
      true,
      // Already in order at every level (hashed as it is, not copied), and in order with one nested object not.
      { a: 1, b: { c: [1, { d: 2, e: 3 }] } },
      { a: 1, b: { c: [1, { e: 3, d: 2 }] } },
      // What an ordered copy through JSON.stringify would write differently: each must come out as the reference's.
      JSON.parse('{"b":1,"__proto__":{"y":1,"x":2},"a":2}'),
      { b: 1, '7': 'index key', a: 2 },
      { b: [1, undefined, 3], a: 1 },
      // eslint-disable-next-line no-sparse-arrays
      { b: [1, , 3], a: 1 },
      { b: () => 1, a: 1 },
      { b: Symbol('s'), a: 1 },
      [() => 1, Symbol('s')],
      { when: new Date(0), a: 1 },
      { map: new Map([['k', 1]]), a: 1 },
      Object.assign(Object.create(null) as object, { b: 1, a: { d: 1, c: 2 } }),
      { toJSON: 'not a function', a: 1 },
      undefined,
    ];
    for (const value of values) assert.equal(canonicalJson(value), referenceCanonicalJson(value));
  });

  it('writes the same text as the first implementation for 3,000 random values with awkward keys', () => {
    const next = randomSource(32);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(next, 4);
      assert.equal(canonicalJson(value), referenceCanonicalJson(value), `value ${i}: ${JSON.stringify(value)}`);
    }
  });

  it('leaves the value it writes as it was', () => {
    const value = JSON.parse(JSON.stringify(application)) as typeof application;
    const before = JSON.stringify(value);
    canonicalJson(value);
    assert.equal(JSON.stringify(value), before);
    assert.deepEqual(Object.keys(value.metadata), ['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences']);
  });

  it('fails on a bigint as JSON.stringify does', () => {
    assert.throws(() => canonicalJson({ a: 1n }), TypeError);
    assert.throws(() => referenceCanonicalJson({ a: 1n }), TypeError);
  });
});
