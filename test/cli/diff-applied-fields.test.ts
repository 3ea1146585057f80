import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldsOnlyAppliedByController } from '../../src/cli/diff/applied-fields.js';
import { FIELD_MANAGER } from '../../src/kube/field-manager.js';
import type { Application } from '../../src/model/objects.js';

const metadata = (labels: string[], annotations: string[] = [], finalizers: string[] = []): Record<string, unknown> => ({
  'f:metadata': {
    'f:labels': Object.fromEntries(['.', ...labels.map((k) => `f:${k}`)].map((k) => [k, {}])),
    'f:annotations': Object.fromEntries(annotations.map((k) => [`f:${k}`, {}])),
    'f:finalizers': Object.fromEntries(finalizers.map((v) => [`v:${JSON.stringify(v)}`, {}])),
  },
});

const app = (managedFields: unknown): Application =>
  ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'a', namespace: 'n', managedFields }, spec: {} }) as unknown as Application;

describe("what the controller's apply alone owns on a live Application", () => {
  it('keys and finalizers of its Apply entry, less those another manager owns too; its own Update entries and status do not count', () => {
    const fields = fieldsOnlyAppliedByController(
      app([
        { manager: FIELD_MANAGER, operation: 'Apply', fieldsV1: metadata(['a', 'shared'], ['x'], ['f.io/one', 'f.io/two']) },
        { manager: 'kubectl', operation: 'Update', fieldsV1: metadata(['shared', 'theirs'], [], ['f.io/two']) },
        { manager: FIELD_MANAGER, operation: 'Update', fieldsV1: metadata(['patched']) },
        { manager: FIELD_MANAGER, operation: 'Apply', subresource: 'status', fieldsV1: metadata(['status-only']) },
      ]),
    );
    assert.deepEqual([...fields.labels], ['a']);
    assert.deepEqual([...fields.annotations], ['x']);
    assert.deepEqual([...fields.finalizers], ['f.io/one']);
  });

  it('nothing when the object carries no managedFields, or malformed ones', () => {
    for (const managed of [
      undefined,
      'x',
      [{ manager: FIELD_MANAGER, operation: 'Apply', fieldsV1: { 'f:metadata': { 'f:finalizers': { 'v:not json': {} } } } }],
    ]) {
      const fields = fieldsOnlyAppliedByController(app(managed));
      assert.deepEqual([fields.labels.size, fields.annotations.size, fields.finalizers.size], [0, 0, 0]);
    }
  });
});
