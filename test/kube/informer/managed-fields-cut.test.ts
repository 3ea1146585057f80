import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutManagedFields } from '../../../src/kube/informer/managed-fields-cut.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** managedFields as the API server writes them, with the escaped quotes of `k:` and `v:` keys. */
const MANAGED_FIELDS: Json = [
  {
    apiVersion: 'argoproj.io/v1alpha1',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': {
        'f:finalizers': { 'v:"resources-finalizer.argocd.argoproj.io"': {} },
        'f:ownerReferences': { 'k:{"uid":"0b6f0b6f-0b6f-0b6f-0b6f-0b6f0b6f0b6f"}': {} },
      },
      'f:spec': { 'f:source': { 'f:path': {}, 'f:repoURL': {} } },
    },
    manager: 'odd ] } [ { " \\ \\" manager',
    operation: 'Apply',
    time: '2026-12-05T10:00:00Z',
  },
];

/** An ADDED event of an Application, keys in the API server's (sorted) order. */
function applicationEvent(metadataExtras: Record<string, Json> = {}, spec: Json = { project: 'default' }): Json {
  return {
    type: 'ADDED',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        annotations: { 'appset-controller.io/intent-hash': 'abc', note: 'a "managedFields":[1] b', managedFields: '[]' },
        labels: { team: 'a' },
        managedFields: MANAGED_FIELDS,
        name: 'app-1',
        namespace: 'argocd',
        ...metadataExtras,
      },
      spec,
    },
  };
}

/** `event` without object.metadata.managedFields (a deep copy; `event` is left as it was). */
function expectedCut(event: Json): Json {
  const copy = structuredClone(event) as { object: { metadata: Record<string, Json> } };
  delete copy.object.metadata.managedFields;
  return copy;
}

/** Asserts the cut removed exactly object.metadata.managedFields from `line`. */
function assertCut(line: string): void {
  const cut = withoutManagedFields(line);
  assert.ok(cut.length < line.length, `nothing was cut from ${line.slice(0, 120)}`);
  assert.deepEqual(JSON.parse(cut), expectedCut(JSON.parse(line) as Json));
}

/** Asserts `line` came back as it was. */
function assertUntouched(line: string): void {
  assert.equal(withoutManagedFields(line), line);
}

describe('withoutManagedFields', () => {
  it('cuts object.metadata.managedFields out of an event as the API server writes it, and nothing else', () => {
    assertCut(JSON.stringify(applicationEvent()));
  });

  it('cuts the member wherever it stands in metadata: first, in the middle, last, alone', () => {
    const first = '{"type":"ADDED","object":{"kind":"A","metadata":{"managedFields":[{"manager":"m"}],"name":"x"}}}';
    const last = '{"type":"ADDED","object":{"kind":"A","metadata":{"name":"x","managedFields":[{"manager":"m"}]},"spec":{}}}';
    const alone = '{"type":"MODIFIED","object":{"metadata":{"managedFields":[]},"spec":{"a":1}}}';
    for (const line of [first, last, alone]) assertCut(line);
    assertCut(JSON.stringify(applicationEvent({ zz: 'after' })));
  });

  it('finds the end of the array past strings holding brackets, braces, quotes and backslashes', () => {
    const tricky: Json = [{ a: ']', b: '}', c: '"]', d: '\\', e: '\\"]', f: '[[[', g: { 'k:{"x":"]"}': [] } }];
    const event = applicationEvent();
    (event as { object: { metadata: Record<string, Json> } }).object.metadata.managedFields = tricky;
    assertCut(JSON.stringify(event));
    // A string ending in an escaped backslash: its closing quote follows two backslashes and is not escaped.
    assertCut('{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":"\\\\"}],"name":"]"},"spec":{"b":"[\\\\"}}}');
  });

  it('leaves every other managedFields alone: in the spec, in a nested metadata, at the top, in a string', () => {
    const inSpecOnly = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'x' }, spec: { helm: { managedFields: [1, 2] } } } });
    assertUntouched(inSpecOnly);
    const nested = JSON.stringify({ type: 'ADDED', object: { kind: 'X', spec: { template: { metadata: { managedFields: [1] } } } } });
    assertUntouched(nested);
    const atTop = JSON.stringify({ managedFields: [1], type: 'ADDED', object: { metadata: { name: 'x' } } });
    assertUntouched(atTop);
    const inStrings = JSON.stringify({ type: 'ADDED', object: { metadata: { annotations: { a: '"managedFields":[', b: '{"managedFields":[1]}' } } } });
    assertUntouched(inStrings);
    const notAnArray = JSON.stringify({ type: 'ADDED', object: { metadata: { managedFields: 'x' } } });
    assertUntouched(notAnArray);
    // The spec's member comes first in the text when the event's own key order puts spec before metadata.
    const specFirst = '{"type":"ADDED","object":{"spec":{"managedFields":[1]},"metadata":{"managedFields":[2],"name":"x"}}}';
    assertUntouched(specFirst);
  });

  it('leaves text it cannot follow alone: an unterminated string or array, no managedFields at all', () => {
    assertUntouched('{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":"b}]}}');
    assertUntouched('{"type":"ADDED","object":{"metadata":{"managedFields":[[1]');
    assertUntouched('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}');
    assertUntouched('');
  });

  it('never removes more than object.metadata.managedFields from random events', () => {
    // A small deterministic generator: values with the characters that matter to a scanner, managedFields
    // placed in metadata or elsewhere at random, keys in random order.
    let seed = 0x5eed;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const texts = ['a', ']', '}', '"', '\\', '\\"', '[{', 'managedFields', '"managedFields":[', 'ü😀', ','];
    const value = (depth: number): Json => {
      const kind = depth > 3 ? pick(['s', 'n']) : pick(['s', 'n', 'a', 'o', 'o']);
      if (kind === 's') return Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(texts)).join('');
      if (kind === 'n') return Math.floor(random() * 100);
      if (kind === 'a') return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const object: Record<string, Json> = {};
      for (let i = Math.floor(random() * 4); i > 0; i--) object[random() < 0.15 ? 'managedFields' : pick(texts) + i] = value(depth + 1);
      return object;
    };
    let cuts = 0;
    for (let round = 0; round < 2_000; round++) {
      const metadata: Record<string, Json> = {};
      for (let i = Math.floor(random() * 4); i > 0; i--) metadata[pick(texts) + i] = value(2);
      if (random() < 0.8) metadata.managedFields = [value(2), value(2)];
      const keys = ['metadata', 'spec', 'apiVersion'].sort(() => random() - 0.5);
      const object: Record<string, Json> = {};
      for (const key of keys) object[key] = key === 'metadata' ? metadata : value(1);
      const line = JSON.stringify({ type: 'MODIFIED', object });
      const cut = withoutManagedFields(line);
      const parsed = JSON.parse(line) as Json;
      if (cut === line) continue;
      cuts++;
      assert.deepEqual(JSON.parse(cut), expectedCut(parsed), line);
    }
    assert.ok(cuts > 300, `only ${cuts} of 2,000 random events were cut`);
  });
});
