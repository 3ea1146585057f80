import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { generate } from '../../src/controller/reconcile/generate.js';
import type { ApplicationSetObject } from '../../src/controller/reconcile/applicationset.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import type { GitReader } from '../../src/git/git-reader.js';
import { noScmAccess } from '../../src/scm/no-access.js';
import { TemplateEngine } from '../../src/templating/engine.js';

const noGit = {} as GitReader;

function appsetWith(generators: unknown[]): ApplicationSetObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { namespace: 'argocd', name: 'x', uid: 'u', resourceVersion: '1' },
    spec: { generators, template: { metadata: {}, spec: {} } },
  } as unknown as ApplicationSetObject;
}

describe('generate: durations for the metrics', () => {
  it('observes each top-level entry by generator name, failed ones too, and never a name a spec made up', async () => {
    const observed: string[] = [];
    const deps = {
      registry: createGeneratorRegistry(),
      git: noGit,
      engine: new TemplateEngine(),
      clusterSecrets: () => [],
      scm: noScmAccess('no SCM provider in this test'),
      observeGenerator: (name: string) => observed.push(name),
    };
    const signal = new AbortController().signal;
    await generate(
      appsetWith([
        { list: { elements: [{ a: '1' }] } },
        { matrix: { generators: [{ list: { elements: [{ b: '1' }] } }, { list: { elements: [{ c: '1' }] } }] } },
      ]),
      deps,
      signal,
      pino({ level: 'silent' }),
    );
    assert.deepEqual(observed, ['list', 'matrix']);
    await assert.rejects(generate(appsetWith([{ 'attacker-chosen-label': {} }]), deps, signal, pino({ level: 'silent' })));
    assert.deepEqual(observed, ['list', 'matrix', 'unknown']);
  });
});
