import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1CustomResourceDefinition, V1JSONSchemaProps } from '@kubernetes/client-node';
import { crdsDirectory, readCrds } from '../../src/kube/install-crds.js';

/** True if the node may go without a type; both client-node's model names and the YAML's are checked. */
function mayBeUntyped(schema: V1JSONSchemaProps): boolean {
  const raw = schema as Record<string, unknown>;
  return Boolean(
    schema.x_kubernetes_preserve_unknown_fields ||
    schema.x_kubernetes_int_or_string ||
    raw['x-kubernetes-preserve-unknown-fields'] ||
    raw['x-kubernetes-int-or-string'],
  );
}

/** Paths of schema nodes that are neither typed nor marked to preserve unknown fields (not structural). */
function untypedNodes(schema: V1JSONSchemaProps, path = '$'): string[] {
  const own = schema.type || mayBeUntyped(schema) ? [] : [path];
  const children = [
    ...Object.entries(schema.properties ?? {}).map(([k, v]) => untypedNodes(v, `${path}.${k}`)),
    ...(schema.items ? [untypedNodes(schema.items as V1JSONSchemaProps, `${path}[]`)] : []),
    ...(typeof schema.additionalProperties === 'object' ? [untypedNodes(schema.additionalProperties as V1JSONSchemaProps, `${path}{}`)] : []),
  ];
  return [...own, ...children.flat()];
}

/** The OpenAPI schema of a CRD's only version. */
function schemaOf(crd: V1CustomResourceDefinition | undefined): V1JSONSchemaProps | undefined {
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
      assert.deepEqual(
        crd.spec.versions.map((v) => v.name),
        ['v1alpha1'],
      );
      assert.deepEqual(crd.spec.versions[0]?.subresources?.status, {});
    }
  });

  it('defines AppProject with the fields tenancy reads', () => {
    const project = schemaOf(byName.get('appprojects.argoproj.io'))?.properties?.spec;
    assert.ok(project?.properties);
    for (const field of ['sourceNamespaces', 'sourceRepos', 'destinations']) assert.ok(project.properties[field], `spec.${field} missing`);
    assert.deepEqual(byName.get('appprojects.argoproj.io')?.spec.names.shortNames, ['appproj', 'appprojs']);
  });

  it('gives ApplicationSet a schema for every field the controller reads', () => {
    const root = schemaOf(byName.get('applicationsets.argoproj.io'));
    const spec = root?.properties?.spec;
    assert.ok(spec?.properties);
    assert.deepEqual(spec.required, ['generators', 'template']);
    for (const field of [
      'generators',
      'template',
      'syncPolicy',
      'strategy',
      'goTemplate',
      'goTemplateOptions',
      'templatePatch',
      'ignoreApplicationDifferences',
      'preservedFields',
    ]) {
      assert.ok(spec.properties[field], `spec.${field} missing`);
    }
    // readCrds keeps the files' own key names (it sends them as written), not client-node's model names.
    const raw = (node: V1JSONSchemaProps | undefined): Record<string, unknown> => (node ?? {}) as Record<string, unknown>;
    assert.equal(raw(spec.properties.template?.properties?.spec)['x-kubernetes-preserve-unknown-fields'], true);
    assert.deepEqual(raw(spec.properties.syncPolicy?.properties?.applicationsSync).enum, ['create-only', 'create-update', 'create-delete', 'sync']);
    const generator = (spec.properties.generators?.items as V1JSONSchemaProps).properties ?? {};
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
    for (const file of ['applicationset.yaml', 'application.yaml', 'appproject.yaml']) {
      const size = statSync(join(crdsDirectory(), file)).size;
      assert.ok(size < 100 * 1024, `${file} is ${size} bytes`);
    }
  });
});
