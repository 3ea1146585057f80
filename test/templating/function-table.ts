import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateProblem } from '../../src/templating/template-problem.js';
import { stringRenderer } from './render-string.js';

/**
 * Table tests for the sprig and Go builtin functions. Every expected output below was produced by Go's
 * text/template with sprig v3.3.0's GenericFuncMap (and the library versions Argo CD v3.2.6 builds with:
 * semver v3.4.0, cast v1.7.1, mergo v1.0.2, Go 1.25), many from sprig's own functions_test.go cases, on the
 * same parameters, which reach templates as Argo CD passes them: JSON numbers are float64s.
 */

/** Parameters of one table case. */
export type Params = Record<string, unknown>;

export const P0: Params = {};
export const P1: Params = {
  s: 'Hello World',
  n: 7,
  f: 1.5,
  big: 1234567,
  neg: -2.5,
  list: ['a', 'b', 'a', 'c'],
  nums: [1, 2, 3],
  m: { b: 2, a: 'x', c: { d: 1 } },
  e: '',
  u: 'héllo wörld',
  path: 'apps/team-a/web',
  url: 'https://user:p%40ss@example.com:8443/a%20b/c?x=1&y=2#frag',
  ver: '1.2.3-beta.1+build.5',
  empty: [],
  nil: null,
  zero: 0,
  t: true,
};
export const P2: Params = { s: 'Hello World', n: 7, list: ['a', 'b'], m: { a: 1 }, nested: { x: { y: { z: 'deep' } } }, arr: [{ k: 'v' }], b: true };
export const P3: Params = { m: { a: 1 } };

const render = stringRenderer();

/** Renders with Argo CD's own missing-key behaviour (`keep`), so nil prints as Go prints it. */
export const renderAsArgoCd = (template: string, params: Params): string => render('goTemplate', template, params, 'keep');

/** Each template renders exactly the expected text; each error template fails as it does in Argo CD. */
export function checkTable(title: string, cases: [string, string, Params][], errors: [string, Params][]): void {
  describe(title, () => {
    for (const [template, expected, params] of cases) it(template, () => assert.equal(renderAsArgoCd(template, params), expected));
    for (const [template, params] of errors) {
      it(`fails like Argo CD: ${template}`, () => assert.throws(() => renderAsArgoCd(template, params), TemplateProblem));
    }
  });
}
