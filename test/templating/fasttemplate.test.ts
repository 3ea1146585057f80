import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MissingParameterError, TemplateProblem } from '../../src/templating/template-problem.js';
import { clusterParams, gitDirectoryParams, stringRenderer } from './render-string.js';

const render = stringRenderer();
const ft = (text: string, params: unknown, missing: 'strict' | 'keep' = 'strict') => render('fasttemplate', text, params, missing);

describe('fasttemplate style (Argo CD default)', () => {
  const cases: [string, string, unknown, string][] = [
    // Argo CD docs: Git directory generator
    ['git directory name', '{{path.basename}}', gitDirectoryParams, 'guestbook'],
    ['git directory path (flat `path` is path.path)', '{{path}}', gitDirectoryParams, 'apps/guestbook'],
    ['path segment by position', '{{path[0]}}-{{path[1]}}', gitDirectoryParams, 'apps-guestbook'],
    ['normalized basename', '{{path.basenameNormalized}}', gitDirectoryParams, 'guestbook'],
    // Argo CD docs: cluster generator
    ['cluster name with suffix', '{{name}}-guestbook', clusterParams, 'staging-east-guestbook'],
    ['cluster server', '{{server}}', clusterParams, 'https://10.0.0.1:6443'],
    ['cluster label', '{{metadata.labels.environment}}', clusterParams, 'staging'],
    ['cluster label whose key has dots', '{{metadata.labels.app.kubernetes.io/part-of}}', clusterParams, 'shop'],
    ['cluster annotation', '{{metadata.annotations.team}}', clusterParams, 'payments'],
    // Argo CD docs: list generator
    [
      'list element',
      'applicationset/examples/list-generator/guestbook/{{cluster}}',
      { cluster: 'engineering-dev' },
      'applicationset/examples/list-generator/guestbook/engineering-dev',
    ],
    ['list values', '{{values.namespace}}', { values: { namespace: 'team-a' } }, 'team-a'],
    ['spaces inside the braces', '{{ name }}/{{  server  }}', clusterParams, 'staging-east/https://10.0.0.1:6443'],
    ['several placeholders and text', 'a-{{name}}-b-{{path.basename}}-c', { ...clusterParams, ...gitDirectoryParams }, 'a-staging-east-b-guestbook-c'],
    ['numbers and booleans print as text', '{{replicas}}/{{enabled}}', { replicas: 3, enabled: true }, '3/true'],
    ['no placeholder: unchanged', 'plain text', {}, 'plain text'],
    ['braces split across lines are not a template (Argo CD only templates a line holding {{...}})', '{{\n}}', {}, '{{\n}}'],
    ['backslashes are literal', 'C:\\{{name}}\\x', clusterParams, 'C:\\staging-east\\x'],
    ['Handlebars syntax is not interpreted in text', 'a {{{ b', {}, 'a {{{ b'],
    ['a value containing braces is inserted literally, never re-rendered', '{{name}}', { name: '{{other}}', other: 'x' }, '{{other}}'],
  ];
  for (const [title, template, params, expected] of cases) {
    it(title, () => assert.equal(ft(template, params), expected));
  }

  it('errors on a missing parameter, naming it (strict default)', () => {
    assert.throws(
      () => ft('{{path.basename}}-{{cluster}}', gitDirectoryParams),
      (error: unknown) => {
        assert.ok(error instanceof MissingParameterError);
        assert.equal(error.parameter, 'cluster');
        assert.equal(error.message, "parameter 'cluster' is missing from the parameter set");
        return true;
      },
    );
  });

  it('treats Handlebars helpers and blocks as parameter names, like Argo CD does', () => {
    assert.throws(() => ft('{{#if name}}x{{/if}}', clusterParams), /parameter '#if name' is missing/);
    assert.equal(ft('{{#if name}}x{{/if}}', clusterParams, 'keep'), '{{#if name}}x{{/if}}');
  });

  it('refuses a map where only strings fit, saying why', () => {
    assert.throws(
      () => ft('{{metadata.labels}}', clusterParams),
      /parameter 'metadata.labels' is missing from the parameter set \(it is a map or list; fasttemplate inserts only strings\)/,
    );
  });

  it('keeps unknown placeholders exactly as written with the opt-out (Argo CD behaviour)', () => {
    assert.equal(ft('{{ nope }}-{{name}}-{{}}-{{a.b}}', clusterParams, 'keep'), '{{ nope }}-staging-east-{{}}-{{a.b}}');
  });

  it('errors on an empty placeholder in strict mode', () => {
    assert.throws(() => ft('x{{ }}', {}), /parameter '\{\{ \}\}' is missing/);
  });

  it('errors on an unclosed placeholder on a templated line', () => {
    assert.throws(
      () => ft('{{a}} {{b', { a: '1' }),
      (e: unknown) => e instanceof TemplateProblem && /'\{\{' at offset 6 has no closing '\}\}'/.test(e.message),
    );
  });

  it('refuses prototype names', () => {
    assert.throws(() => ft('{{constructor}}', {}), /access to 'constructor' is not allowed/);
    assert.throws(() => ft('{{a.__proto__.b}}', { a: {} }), /access to '__proto__' is not allowed/);
    assert.throws(() => ft('{{toString}}', {}), /parameter 'toString' is missing/);
  });
});
