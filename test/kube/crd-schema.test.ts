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

describe("the ApplicationSet CRD's validator (the API server's words, as test/cli/validate-schema.int.test.ts checks them against it)", () => {
  const appset = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'web', namespace: 'argocd', ...metadata },
    spec: { generators: [{ list: { elements: [] } }], template: { metadata: {}, spec: {} }, ...spec },
  });
  const check = (object: unknown): unknown => {
    const validator = CrdValidator.fromCrd(readCrds().find((crd) => crd.spec.names.kind === 'ApplicationSet') ?? assert.fail('no ApplicationSet CRD'));
    const { result, problems } = validator.check(object);
    return { result, problems };
  };

  it('accepts a valid one and does not change it', () => {
    const object = appset({ goTemplate: null });
    assert.deepEqual(check(object), { result: 'accepted', problems: [] });
    assert.equal((object['spec'] as Record<string, unknown>)['goTemplate'], null);
  });

  it('names unknown fields alone, sorted, as a strict decoding error does', () => {
    assert.deepEqual(check(appset({ zeta: 1, alpha: 2, goTemplate: 'yes' }, { colour: 'blue' })), {
      result: 'bad-request',
      problems: ['unknown field "metadata.colour"', 'unknown field "spec.alpha"', 'unknown field "spec.zeta"'],
    });
  });

  it('reports types, enums, required fields and bounds together, as a 422 does', () => {
    const object = appset({ goTemplate: 'yes', syncPolicy: { applicationsSync: 'all' }, generators: [] });
    delete (object['spec'] as Record<string, unknown>)['template'];
    assert.deepEqual(check(object), {
      result: 'invalid',
      problems: [
        'spec.generators: Invalid value: 0: spec.generators in body should have at least 1 items',
        'spec.goTemplate: Invalid value: "string": spec.goTemplate in body must be of type boolean: "string"',
        'spec.syncPolicy.applicationsSync: Unsupported value: "all": supported values: "create-only", "create-update", "create-delete", "sync"',
        'spec.template: Required value',
      ],
    });
  });

  it('checks the metadata as ObjectMeta validation does', () => {
    assert.deepEqual(check(appset({}, { name: 'Web' })), {
      result: 'invalid',
      problems: [
        `metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    });
  });
});
