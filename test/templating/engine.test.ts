import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateEngine } from '../../src/templating/engine.js';
import { HandlebarsRenderer } from '../../src/templating/handlebars-renderer.js';
import { applyStrategicPatch, mergeGeneratorTemplate } from '../../src/templating/template-merge.js';
import { RenderError } from '../../src/templating/renderer.js';
import { RenderBudget } from '../../src/templating/scope.js';
import { goNumber } from '../../src/templating/plain-values.js';
import { dnsSubdomainProblem, labelKeyProblem, labelValueProblem } from '../../src/templating/validate.js';

const scope = () => ({ missing: 'strict' as const, patch: false, budget: new RenderBudget(1000, 1_000_000) });

describe('TemplateEngine cache', () => {
  it('keeps at most its size of compiled templates, evicting the oldest', () => {
    const engine = new TemplateEngine(3);
    for (const name of ['a', 'b', 'c']) engine.render('fasttemplate', `{{${name}}}`, { a: '1', b: '2', c: '3', d: '4' }, scope());
    engine.render('fasttemplate', '{{a}}', { a: '1' }, scope());
    engine.render('fasttemplate', '{{d}}', { d: '4' }, scope());
    assert.equal(engine.cachedTemplates, 3);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((n) => engine.isCached('fasttemplate', `{{${n}}}`)),
      [false, true, true, true],
    );
    assert.equal(engine.render('fasttemplate', '{{a}}', { a: 'again' }, scope()), 'again');
  });

  it('caches by style: the same text means different things in the two styles', () => {
    const engine = new TemplateEngine();
    assert.equal(engine.render('fasttemplate', '{{name}}', { name: 'x' }, scope()), 'x');
    assert.throws(() => engine.render('goTemplate', '{{name}}', { name: 'x' }, scope()), /function 'name' is not supported/);
  });

  it('remembers a template that cannot be translated and refuses it again with the same message', () => {
    const engine = new TemplateEngine();
    const first = (() => {
      try {
        engine.render('goTemplate', '{{ env "X" }}', {}, scope());
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    assert.match(first, /function 'env' is not supported/);
    assert.throws(() => engine.render('goTemplate', '{{ env "X" }}', {}, scope()), { message: first });
    assert.equal(engine.cachedTemplates, 1);
  });
});

describe('HandlebarsRenderer (the Renderer contract)', () => {
  const renderer = new HandlebarsRenderer();
  it('renders string leaves with the options of the ApplicationSet', () => {
    assert.deepEqual(renderer.render({ a: '{{x}}', n: 1, l: ['{{x}}'] }, { x: 'v' }, { goTemplate: false, goTemplateOptions: [] }), { a: 'v', n: 1, l: ['v'] });
    assert.deepEqual(renderer.render({ a: '{{.x}}' }, { x: 'v' }, { goTemplate: true, goTemplateOptions: [] }), { a: 'v' });
  });
  it('errors name the template field and the parameter', () => {
    assert.throws(
      () => renderer.render({ spec: { sources: [{ path: '{{nope}}' }] } }, {}, { goTemplate: false, goTemplateOptions: [] }),
      (e: unknown) => {
        assert.ok(e instanceof RenderError);
        assert.equal(e.field, 'spec.sources[0].path');
        assert.equal(e.message, "spec.sources[0].path: parameter 'nope' is missing from the parameter set");
        return true;
      },
    );
  });
  it('honours the opt-out and missingkey=error', () => {
    assert.deepEqual(renderer.render({ a: '{{nope}}' }, {}, { goTemplate: false, goTemplateOptions: [], keepMissingParameters: true }), { a: '{{nope}}' });
    assert.throws(
      () => renderer.render({ a: '{{ .nope | default "x" }}' }, {}, { goTemplate: true, goTemplateOptions: ['missingkey=error'] }),
      /missingkey=error/,
    );
  });
});

describe('mergeGeneratorTemplate (mergo: the generator template wins where it is not empty)', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['non-empty strings win', { a: 'g' }, { a: 's' }, { a: 'g' }],
    ['empty strings are filled', { a: '' }, { a: 's' }, { a: 's' }],
    ['false is empty, so spec.template true wins (as mergo)', { b: false }, { b: true }, { b: true }],
    ['maps merge key by key', { m: { x: '1' } }, { m: { y: '2' } }, { m: { x: '1', y: '2' } }],
    ['a non-empty list wins whole', { l: ['g'] }, { l: ['s1', 's2'] }, { l: ['g'] }],
    ['an empty list is filled', { l: [] }, { l: ['s'] }, { l: ['s'] }],
    ['keys only in the generator template are kept', { only: 'g' }, {}, { only: 'g' }],
  ];
  for (const [title, override, base, expected] of cases) it(title, () => assert.deepEqual(mergeGeneratorTemplate(override, base), expected));
});

describe('applyStrategicPatch', () => {
  it('merges maps, deletes on null, replaces lists and unions finalizers', () => {
    const target = { metadata: { finalizers: ['a'], labels: { x: '1' } }, spec: { sources: [{ a: 1 }], keep: 1, drop: 2 } };
    const patch = { metadata: { finalizers: ['a', 'b'], labels: { y: '2' } }, spec: { sources: [{ b: 2 }], drop: null } };
    assert.deepEqual(applyStrategicPatch(target, patch), {
      metadata: { finalizers: ['a', 'b'], labels: { x: '1', y: '2' } },
      spec: { sources: [{ b: 2 }], keep: 1 },
    });
  });
});

describe('validation rules', () => {
  const names: [string, boolean][] = [
    ['guestbook', true],
    ['a.b-c', true],
    ['A', false],
    ['-a', false],
    ['a_', false],
    ['a'.repeat(253), true],
    ['a'.repeat(254), false],
    ['', false],
  ];
  for (const [name, ok] of names) it(`name ${name.slice(0, 12)} ${ok ? 'valid' : 'invalid'}`, () => assert.equal(dnsSubdomainProblem(name) === undefined, ok));
  const values: [string, boolean][] = [
    ['', true],
    ['Prod_1.x', true],
    ['-x', false],
    ['a b', false],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
  ];
  for (const [value, ok] of values)
    it(`label value '${value.slice(0, 12)}' ${ok ? 'valid' : 'invalid'}`, () => assert.equal(labelValueProblem(value) === undefined, ok));
  const keys: [string, boolean][] = [
    ['env', true],
    ['app.kubernetes.io/name', true],
    ['Bad_Prefix/x', false],
    ['a/', false],
    ['x'.repeat(64), false],
  ];
  for (const [key, ok] of keys) it(`label key '${key.slice(0, 12)}' ${ok ? 'valid' : 'invalid'}`, () => assert.equal(labelKeyProblem(key) === undefined, ok));
});

describe('Go number formatting', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [3, '3'],
    [-12, '-12'],
    [123456, '123456'],
    [1000000, '1e+06'],
    [1234567, '1.234567e+06'],
    [1.5, '1.5'],
    [0.0001, '0.0001'],
    [0.000015, '1.5e-05'],
  ];
  for (const [n, s] of cases) it(`${n} -> ${s}`, () => assert.equal(goNumber(n), s));
});
