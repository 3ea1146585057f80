import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParamSet } from '../../src/model/params.js';
import { MISSING_PARAMETERS_ANNOTATION, type ApplicationSetForRender, type GeneratorOutput } from '../../src/model/applicationset-types.js';
import { renderApplicationSet } from '../../src/templating/render-applicationset.js';
import { RenderMemo } from '../../src/templating/render-memo.js';
import { plainDataKey } from '../../src/templating/plain-data-key.js';
import { TemplateEngine } from '../../src/templating/engine.js';
import { appset } from './appset-fixtures.js';

const one = (params: ParamSet[], generatorIndex = 0): GeneratorOutput[] => [{ generatorIndex, params }];

/** What a render gave: its Applications, or the error's message. */
function outcome(set: ApplicationSetForRender, outputs: GeneratorOutput[], memo?: RenderMemo, engine = new TemplateEngine()): unknown {
  try {
    return renderApplicationSet(set, outputs, { engine, ...(memo ? { memo } : {}) }).map((r) => r.application);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const goBase = (): ApplicationSetForRender =>
  appset(
    {
      goTemplate: true,
      generators: [{ list: { elements: [] } }, { list: { elements: [], template: { metadata: {}, spec: { project: 'default' } } } }],
      template: {
        metadata: { name: '{{.cluster}}-guestbook', labels: { team: '{{.team}}' } },
        spec: {
          project: 'default',
          source: { repoURL: 'https://github.com/argoproj/argo-cd.git', targetRevision: 'HEAD', path: 'apps/{{.cluster}}' },
          destination: { server: '{{.url}}', namespace: 'guestbook' },
        },
      },
      templatePatch: 'metadata:\n  annotations:\n    owner: "{{.team}}"\n',
    },
    { [MISSING_PARAMETERS_ANNOTATION]: 'keep' },
  );

const params: ParamSet[] = [{ cluster: 'dev', url: 'https://1.2.3.4', team: 'blue' }];

/** Each changes one input of a render; none may be answered with the render of the unchanged input. */
type Input = { set: ApplicationSetForRender; outputs?: GeneratorOutput[] };
const changes: { name: string; base?: () => Input; change: (set: ApplicationSetForRender) => Input }[] = [
  {
    name: 'a template field',
    change: (set) => ({ set: { ...set, spec: { ...set.spec, template: { ...set.spec.template, metadata: { name: '{{.cluster}}-other' } } } } }),
  },
  {
    name: "a generator's own template",
    change: (set) => {
      const generators = [set.spec.generators[0]!, { list: { elements: [], template: { metadata: {}, spec: { project: 'other' } } } }];
      return { set: { ...set, spec: { ...set.spec, generators } }, outputs: one(params, 1) };
    },
  },
  {
    name: 'the templatePatch',
    change: (set) => ({ set: { ...set, spec: { ...set.spec, templatePatch: 'metadata:\n  annotations:\n    owner: "{{.cluster}}"\n' } } }),
  },
  { name: 'goTemplate', change: (set) => ({ set: { ...set, spec: { ...set.spec, goTemplate: false } } }) },
  {
    name: 'goTemplateOptions',
    base: withoutTeam,
    change: (set) => ({ set: { ...set, spec: { ...set.spec, goTemplateOptions: ['missingkey=error'] } } }),
  },
  { name: 'the missing-parameters annotation', base: withoutTeam, change: (set) => ({ set: { ...set, metadata: { ...set.metadata, annotations: {} } } }) },
  { name: 'preserveResourcesOnDeletion', change: (set) => ({ set: { ...set, spec: { ...set.spec, syncPolicy: { preserveResourcesOnDeletion: true } } } }) },
  { name: "the ApplicationSet's namespace", change: (set) => ({ set: { ...set, metadata: { ...set.metadata, namespace: 'team-b' } } }) },
  { name: 'a parameter value', change: (set) => ({ set, outputs: one([{ ...params[0]!, team: 'green' }]) }) },
  {
    name: 'a nested parameter value',
    base: () => ({ set: withTeamFrom(goBase(), '{{.owner.team}}'), outputs: one([{ ...params[0]!, owner: { team: 'blue' } }]) }),
    change: (set) => ({ set, outputs: one([{ ...params[0]!, owner: { team: 'red' } }]) }),
  },
];

/** The base ApplicationSet, given parameters without the team its template reads (missing-parameter handling decides). */
function withoutTeam(): Input {
  const base = goBase();
  // Only the revision reads the team: a missing one kept as Go's `<no value>` is still a valid revision.
  const template = {
    metadata: { name: '{{.cluster}}-guestbook' },
    spec: { project: 'default', source: { repoURL: 'https://x/y.git', targetRevision: '{{.team}}' }, destination: { server: '{{.url}}' } },
  };
  const { templatePatch: _patch, ...spec } = base.spec;
  const set = { ...base, spec: { ...spec, template } };
  return { set, outputs: one([{ cluster: 'dev', url: 'https://1.2.3.4' }]) };
}

/** The ApplicationSet with its team label read from `text`. */
function withTeamFrom(set: ApplicationSetForRender, text: string): ApplicationSetForRender {
  const metadata = { ...set.spec.template.metadata, labels: { team: text } };
  return { ...set, spec: { ...set.spec, template: { ...set.spec.template, metadata } } };
}

describe('render memo', () => {
  for (const { name, base: baseOf, change } of changes) {
    it(`renders again when ${name} changed`, () => {
      const base = baseOf?.() ?? { set: goBase() };
      const baseOutputs = base.outputs ?? one(params);
      const changed = change(base.set);
      const changedOutputs = changed.outputs ?? baseOutputs;
      // The memo first holds the unchanged input's render.
      const memo = new RenderMemo();
      const engine = new TemplateEngine();
      const before = outcome(base.set, baseOutputs, memo, engine);
      assert.equal(memo.remembered, 1, "the unchanged input's render is remembered");
      const fresh = outcome(changed.set, changedOutputs);
      assert.notDeepEqual(fresh, before, `the test's change must matter to the render (${name})`);
      assert.deepEqual(outcome(changed.set, changedOutputs, memo, engine), fresh);
    });
  }

  it('answers an unchanged parameter set from memory, frozen, and renders only the changed one', () => {
    const memo = new RenderMemo();
    const engine = new TemplateEngine();
    const sets: ParamSet[] = [params[0]!, { cluster: 'prod', url: 'https://2.4.6.8', team: 'blue' }];
    const first = renderApplicationSet(goBase(), one(sets), { engine, memo });
    assert.deepEqual(memo.stats, { hits: 0, misses: 2 });
    const second = renderApplicationSet(goBase(), one([sets[0]!, { ...sets[1]!, team: 'green' }]), { engine, memo });
    assert.deepEqual(memo.stats, { hits: 1, misses: 3 });
    assert.equal(second[0]!.application, first[0]!.application, 'the unchanged parameter set is answered with the remembered object');
    assert.equal(second[1]!.application.metadata.labels?.['team'], 'green');
    assert.ok(Object.isFrozen(second[0]!.application.spec), 'a shared render is frozen');
    assert.throws(() => {
      (second[0]!.application.metadata as { name: string }).name = 'changed';
    }, TypeError);
    assert.deepEqual(first[0]!.application, (outcome(goBase(), one([sets[0]!])) as unknown[])[0], 'the same as a render without the memo');
  });

  it('still counts a remembered render against the output limit', () => {
    const memo = new RenderMemo();
    const engine = new TemplateEngine();
    renderApplicationSet(goBase(), one(params), { engine, memo });
    assert.throws(
      () => renderApplicationSet(goBase(), one(params), { engine, memo, limits: { timeLimitMs: 10_000, maxOutputBytes: 20 } }),
      /exceeds the limit of 20 characters/,
    );
    assert.equal(memo.stats.hits, 1, 'the limit was reached by the remembered render, not by rendering again');
  });

  it('forgets the least recently used render beyond its size, and remembers nothing at size 0', () => {
    const memo = new RenderMemo(2);
    const engine = new TemplateEngine();
    const p = (cluster: string): ParamSet => ({ ...params[0]!, cluster });
    renderApplicationSet(goBase(), one([p('a'), p('b')]), { engine, memo });
    renderApplicationSet(goBase(), one([p('a')]), { engine, memo }); // a is now the most recent
    renderApplicationSet(goBase(), one([p('c')]), { engine, memo }); // b goes
    assert.equal(memo.remembered, 2);
    const hits = memo.stats.hits;
    renderApplicationSet(goBase(), one([p('a'), p('c')]), { engine, memo });
    assert.equal(memo.stats.hits, hits + 2);
    renderApplicationSet(goBase(), one([p('b')]), { engine, memo });
    assert.equal(memo.stats.hits, hits + 2, 'b was forgotten');
    const off = new RenderMemo(0);
    renderApplicationSet(goBase(), one([p('a')]), { engine, memo: off });
    const again = renderApplicationSet(goBase(), one([p('a')]), { engine, memo: off });
    assert.equal(off.remembered, 0);
    assert.ok(!Object.isFrozen(again[0]!.application), 'without a memo nothing is frozen');
  });

  it('does not remember a failed render', () => {
    const memo = new RenderMemo();
    const strict = { ...goBase(), metadata: { ...goBase().metadata, annotations: {} } };
    assert.match(String(outcome(strict, one([{ cluster: 'dev', url: 'x' }]), memo)), /^error: .*team/);
    assert.equal(memo.remembered, 0);
  });
});

describe('plainDataKey', () => {
  it('gives values a template can tell apart different keys', () => {
    const distinct: unknown[] = [
      {},
      { a: undefined },
      { a: null },
      { a: Number.NaN },
      { a: 0 },
      { a: -0 },
      { a: Number.POSITIVE_INFINITY },
      { a: '0' },
      { a: 'n' },
      { a: 'u' },
      { a: '#NaN' },
      { a: ['x'] },
      { a: 'x' },
      { a: { b: 1 } },
      { 'a"': 1 },
      { b: 1, a: 1 },
      { a: 1, b: 1 },
      { a: true },
      { a: 'true' },
    ];
    const keys = distinct.map((value) => plainDataKey(value));
    assert.equal(new Set(keys).size, distinct.length, JSON.stringify(keys));
    assert.equal(plainDataKey({ a: [1, { b: 'c' }] }), plainDataKey({ a: [1, { b: 'c' }] }));
  });

  it('gives no key to values that are not plain data', () => {
    for (const value of [{ a: new Date(0) }, { a: new Map() }, { a: () => 1 }, { a: Symbol('s') }, { a: 1n }])
      assert.equal(plainDataKey(value), undefined, String(Object.values(value)[0]));
  });
});
