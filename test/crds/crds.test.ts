import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { crdsDirectory, readCrds } from '../../src/kube/install-crds.js';

/** A node of a CRD's OpenAPI schema, as written in the YAML file. */
interface SchemaNode {
  type?: string;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

/** Paths of schema nodes that are neither typed nor marked to preserve unknown fields (not structural). */
function untypedNodes(schema: SchemaNode, path = '$'): string[] {
  const own = schema.type || schema['x-kubernetes-preserve-unknown-fields'] || schema['x-kubernetes-int-or-string'] ? [] : [path];
  const children = [
    ...Object.entries(schema.properties ?? {}).map(([k, v]) => untypedNodes(v, `${path}.${k}`)),
    ...(schema.items ? [untypedNodes(schema.items, `${path}[]`)] : []),
    ...(typeof schema.additionalProperties === 'object' ? [untypedNodes(schema.additionalProperties, `${path}{}`)] : []),
  ];
  return [...own, ...children.flat()];
}

/** The OpenAPI schema of a CRD's only version, typed as written in YAML. */
function schemaOf(crd: V1CustomResourceDefinition | undefined): SchemaNode | undefined {
  return crd?.spec.versions[0]?.schema?.openAPIV3Schema;
}

describe('CRD files', () => {
  const crds = readCrds();
  const byName = new Map(crds.map((c) => [c.metadata?.name, c]));

  it('defines ApplicationSet and Application in argoproj.io/v1alpha1 with their short names', () => {
    const appset = byName.get('applicationsets.argoproj.io');
    const app = byName.get('applications.argoproj.io');
    assert.ok(appset && app);
    assert.deepEqual(appset.spec.names.shortNames, ['appset', 'appsets']);
    assert.deepEqual(app.spec.names.shortNames, ['app', 'apps']);
    for (const crd of [appset, app]) {
      assert.equal(crd.spec.group, 'argoproj.io');
      assert.equal(crd.spec.scope, 'Namespaced');
      assert.deepEqual(crd.spec.versions.map((v) => v.name), ['v1alpha1']);
      assert.deepEqual(crd.spec.versions[0]?.subresources?.status, {});
    }
  });

  it('gives ApplicationSet a schema for every field the controller reads', () => {
    const root = schemaOf(byName.get('applicationsets.argoproj.io'));
    const spec = root?.properties?.spec;
    assert.ok(spec?.properties);
    assert.deepEqual(spec.required, ['generators', 'template']);
    for (const field of ['generators', 'template', 'syncPolicy', 'strategy', 'goTemplate', 'goTemplateOptions', 'templatePatch', 'ignoreApplicationDifferences', 'preservedFields']) {
      assert.ok(spec.properties[field], `spec.${field} missing`);
    }
    assert.equal(spec.properties.template?.properties?.spec?.['x-kubernetes-preserve-unknown-fields'], true);
    const generator = spec.properties.generators?.items?.properties ?? {};
    for (const kind of ['list', 'clusters', 'git', 'matrix', 'merge']) assert.ok(generator[kind], `generator ${kind} missing`);
  });

  it('keeps every schema structural', () => {
    for (const crd of crds) {
      const schema = schemaOf(crd);
      assert.ok(schema);
      assert.deepEqual(untypedNodes(schema), [], `${crd.metadata?.name} has untyped nodes`);
    }
  });

  it('stays under 100 KB per file, small enough for a client-side kubectl apply', () => {
    for (const file of ['applicationset.yaml', 'application.yaml']) {
      const size = statSync(join(crdsDirectory(), file)).size;
      assert.ok(size < 100 * 1024, `${file} is ${size} bytes`);
    }
  });
});
