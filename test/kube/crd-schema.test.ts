import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrdValidator } from '../../src/kube/crd-schema/crd-validator.js';
import { compileSchema, UnsupportedSchemaError } from '../../src/kube/crd-schema/schema.js';
import { readCrds } from '../../src/kube/install-crds.js';

describe('CRD schema compilation', () => {
  it("compiles every CRD this project installs (so validate checks all of each schema's keywords)", () => {
    const crds = readCrds();
    assert.deepEqual(crds.map((crd) => crd.spec.names.kind).sort(), ['AppProject', 'Application', 'ApplicationSet']);
    for (const crd of crds) assert.ok(CrdValidator.fromCrd(crd));
  });

  for (const [keyword, schema] of [
    ['x-kubernetes-validations', { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 0' }] }],
    ['default', { type: 'string', default: 'a' }],
    ['anyOf', { anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    ['x-kubernetes-list-type: "set"', { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }],
    ['x-kubernetes-embedded-resource', { type: 'object', 'x-kubernetes-embedded-resource': true }],
    ['format: email', { type: 'string', format: 'email' }],
  ] as const) {
    it(`refuses a schema using ${keyword}, naming where, instead of leaving it unchecked`, () => {
      assert.throws(
        () => compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: { field: schema } } } }),
        (error: unknown) =>
          error instanceof UnsupportedSchemaError &&
          error.message.startsWith('openAPIV3Schema.properties.spec.properties.field: ') &&
          error.message.includes(keyword.split(':')[0] ?? ''),
      );
    });
  }

  it('keeps no format the API server strips (int64), so it is not checked either', () => {
    assert.equal(compileSchema({ type: 'integer', format: 'int64' }).format, '');
    assert.equal(compileSchema({ type: 'string', format: 'date-time' }).format, 'date-time');
  });
});
