import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeApplicationSpec } from '../../src/templating/normalize-application.js';

// What Argo CD v3.2.6 stores for a rendered spec: its Go structs' JSON (omitempty, structs that are not pointers)
// after NormalizeApplicationSpec. Each case follows pkg/apis/application/v1alpha1 types.go and util/argo.
const destination = { server: 'https://kubernetes.default.svc', namespace: 'web' };
const source = { repoURL: 'https://git.example/repo.git', path: 'web' };
const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  [
    'false and empty values of omitempty fields are dropped',
    { project: 'default', source, destination, syncPolicy: { automated: { prune: false, selfHeal: true, allowEmpty: false }, syncOptions: [] } },
    { project: 'default', source, destination, syncPolicy: { automated: { selfHeal: true } } },
  ],
  ['an empty helm block is removed', { project: 'p', source: { ...source, helm: {} }, destination }, { project: 'p', source, destination }],
  [
    'a directory block gains `jsonnet: {}` (a struct, not a pointer)',
    { project: 'p', source: { ...source, directory: { recurse: true } }, destination },
    { project: 'p', source: { ...source, directory: { recurse: true, jsonnet: {} } }, destination },
  ],
  [
    'a directory that only excludes keeps the exclude',
    { project: 'p', source: { ...source, directory: { exclude: '*.md', recurse: false } }, destination },
    { project: 'p', source: { ...source, directory: { exclude: '*.md', jsonnet: {} } }, destination },
  ],
  ['a syncPolicy with nothing in it is removed', { project: 'p', source, destination, syncPolicy: { automated: null } }, { project: 'p', source, destination }],
  [
    'unknown fields are dropped, as Go ignores them',
    { project: 'p', source: { ...source, helmm: {} }, destination, extra: 1 },
    { project: 'p', source, destination },
  ],
  [
    'fields match case-insensitively, as encoding/json matches them',
    { project: 'p', source: { ...source, TargetRevision: 'main' }, destination },
    { project: 'p', source: { ...source, targetRevision: 'main' }, destination },
  ],
  [
    'a multi-source spec keeps empty blocks (Argo CD normalizes copies there)',
    { project: 'p', sources: [{ ...source, helm: {} }], destination },
    { project: 'p', sources: [{ ...source, helm: {} }], destination },
  ],
  ['an empty project becomes default', { project: '', source, destination }, { project: 'default', source, destination }],
];

describe('Argo CD parity: a rendered spec is stored as Argo CD stores it', () => {
  for (const [name, input, expected] of cases) it(name, () => assert.deepEqual(normalizeApplicationSpec(input), expected));
});
