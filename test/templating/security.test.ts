import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { ParamSet } from '../../src/model/params.js';
import { TemplateEngine } from '../../src/templating/engine.js';
import { RenderLimitError, TemplateProblem } from '../../src/templating/template-problem.js';
import { TEMPLATE_FUNCTIONS } from '../../src/templating/functions.js';
import { renderApplicationSet } from '../../src/templating/render-applicationset.js';
import { RenderBudget } from '../../src/templating/scope.js';
import { appset } from './appset-fixtures.js';
import { stringRenderer } from './render-string.js';

const render = stringRenderer();
const one = (params: ParamSet[]) => [{ generatorIndex: 0, params }];

describe('security: parameters never inject structure or template code', () => {
  it('a value containing {{ }} is inserted as text and never rendered again (both styles)', () => {
    const params = { cluster: '{{url}}', url: 'https://x', secret: 's3cr3t' };
    assert.equal(render('fasttemplate', '{{cluster}}', params), '{{url}}');
    assert.equal(render('goTemplate', '{{.cluster}}', { ...params, cluster: '{{.secret}}' }), '{{.secret}}');
    const spec = appset().spec;
    const a = appset({ template: { ...spec.template, metadata: { name: 'app', annotations: { note: '{{cluster}}' } } } });
    const app = renderApplicationSet(a, one([params]))[0]?.application;
    assert.deepEqual(app?.metadata.annotations, { note: '{{url}}' });
  });

  it('a value shaped like YAML or JSON stays one string in its leaf', () => {
    const params = { cluster: 'x', url: 'https://x\nproject: admin', extra: '{"project":"admin"}' };
    const spec = appset().spec;
    const a = appset({ template: { ...spec.template, metadata: { name: 'app', annotations: { a: '{{url}}', b: '{{extra}}' } } } });
    const app = renderApplicationSet(a, one([params]))[0]?.application;
    assert.equal(app?.spec['project'], 'default');
    assert.deepEqual(app?.metadata.annotations, { a: 'https://x\nproject: admin', b: '{"project":"admin"}' });
    assert.deepEqual((app?.spec['destination'] as Record<string, unknown>)['server'], 'https://x\nproject: admin');
  });

  it('templatePatch refuses a raw parameter with a line break (it would add YAML keys), but accepts it quoted', () => {
    const params = [{ cluster: 'c', url: 'https://x', note: 'x\nspec:\n  project: admin' }];
    const patch = (body: string) =>
      appset({
        goTemplate: true,
        template: { metadata: { name: '{{.cluster}}' }, spec: { project: 'default', destination: { server: '{{.url}}' } } },
        templatePatch: body,
      });
    assert.throws(
      () => renderApplicationSet(patch('metadata:\n  annotations:\n    note: {{ .note }}\n'), one(params)),
      /templatePatch: '\{\{ \.note \}\}' at line 3, column 11: a parameter containing a line break cannot be inserted into templatePatch/,
    );
    const app = renderApplicationSet(patch('metadata:\n  annotations:\n    note: {{ .note | toJson }}\n'), one(params))[0]?.application;
    assert.equal(app?.metadata.annotations?.['note'], 'x\nspec:\n  project: admin');
    assert.equal(app?.spec['project'], 'default');
  });

  it('template source that looks like JavaScript is only text', () => {
    const text = '"}}); process.exit(1); ({ {{name}} \\u0022 ${1+1} `x`';
    assert.equal(render('fasttemplate', text, { name: 'n' }), '"}}); process.exit(1); ({ n \\u0022 ${1+1} `x`');
    assert.equal(render('goTemplate', '{{ "\\"); process.exit(1); (\\"" }}', {}), '"); process.exit(1); ("');
    assert.throws(() => render('goTemplate', '{{ 1e999 }}', {}), /the number 1e999 is out of range/);
  });
});

describe('security: prototype access is off', () => {
  const refused: [string, 'fasttemplate' | 'goTemplate', string][] = [
    ['fasttemplate constructor', 'fasttemplate', '{{constructor}}'],
    ['fasttemplate nested __proto__', 'fasttemplate', '{{name.__proto__}}'],
    ['goTemplate .constructor.constructor', 'goTemplate', '{{ .constructor.constructor }}'],
    ['goTemplate $.__proto__', 'goTemplate', '{{ $.__proto__ }}'],
    ['goTemplate range variable prototype', 'goTemplate', '{{ range $v := .list }}{{ $v.prototype }}{{ end }}'],
    ['goTemplate index constructor', 'goTemplate', '{{ index . "constructor" }}'],
    ['goTemplate dict __proto__', 'goTemplate', '{{ dict "__proto__" "x" }}'],
    ['goTemplate field after a call', 'goTemplate', '{{ (dict "a" "b").constructor }}'],
  ];
  for (const [title, style, template] of refused) {
    it(`refuses ${title}`, () =>
      assert.throws(
        () => render(style, template, { name: 'n', list: [{}] }),
        (e: unknown) => e instanceof TemplateProblem && /'(constructor|__proto__|prototype)' is not allowed/.test(e.message),
      ));
  }

  it('inherited properties are not parameters', () => {
    const params = Object.create({ inherited: 'x' }) as Record<string, unknown>;
    assert.throws(() => render('fasttemplate', '{{inherited}}', params), /parameter 'inherited' is missing/);
    assert.throws(() => render('goTemplate', '{{.inherited}}', params), /parameter '\.inherited' is missing/);
    assert.throws(() => render('goTemplate', '{{.toString}}', {}), /parameter '\.toString' is missing/);
  });

  it('a __proto__ key in parameters or the template pollutes nothing', () => {
    const params = JSON.parse('{"__proto__": {"polluted": "yes"}, "cluster": "c", "url": "https://x"}') as ParamSet;
    renderApplicationSet(appset(), one([params]));
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    const spec = appset().spec;
    const template = JSON.parse('{"metadata": {"name": "a", "labels": {"__proto__": {"x": "y"}}}}') as Record<string, unknown>;
    assert.throws(
      () => renderApplicationSet(appset({ template: { ...template, spec: spec.template.spec } }), one([params])),
      /the key '__proto__' is not allowed/,
    );
    const renderedKey = appset({ template: { metadata: { name: 'a', labels: { '{{k}}': 'v' } }, spec: spec.template.spec } });
    assert.throws(() => renderApplicationSet(renderedKey, one([{ k: '__proto__', cluster: 'c', url: 'https://x' }])), /the key '__proto__' is not allowed/);
  });
});

describe('security: no helper reaches the environment, files or network', () => {
  it('env, expandenv, getHostByName and file functions do not exist', () => {
    process.env['APPSET_TEMPLATING_SENTINEL'] = 'sentinel-value-7731';
    for (const template of [
      '{{ env "APPSET_TEMPLATING_SENTINEL" }}',
      '{{ expandenv "$APPSET_TEMPLATING_SENTINEL" }}',
      '{{ getHostByName "localhost" }}',
      '{{ readFile "/etc/hostname" }}',
      '{{ tpl "x" . }}',
    ]) {
      assert.throws(() => render('goTemplate', template, {}), /function '\w+' is not supported/);
    }
    for (const name of ['env', 'expandenv', 'getHostByName', 'readFile', 'exec', 'tpl']) assert.equal(Object.hasOwn(TEMPLATE_FUNCTIONS, name), false);
  });

  it('no function, given any argument, returns the value of an environment variable', () => {
    const sentinel = 'sentinel-value-7731';
    process.env['APPSET_TEMPLATING_SENTINEL'] = sentinel;
    const args = ['APPSET_TEMPLATING_SENTINEL', '$APPSET_TEMPLATING_SENTINEL', '/proc/self/environ', 'file:///etc/hostname', 1];
    for (const [name, fn] of Object.entries(TEMPLATE_FUNCTIONS)) {
      for (const arg of args) {
        let out: unknown;
        try {
          out = fn.call(arg, arg, arg);
        } catch {
          continue;
        }
        const text = JSON.stringify(out ?? null, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
        assert.ok(!text.includes(sentinel), `${name} leaked the environment`);
      }
    }
  });

  it('the templating sources import no fs, network, process or child_process module', () => {
    const dir = fileURLToPath(new URL('../../../src/templating/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(`${dir}${file}`, 'utf8');
      assert.doesNotMatch(source, /from 'node:(fs|net|http|https|dns|child_process|process|worker_threads|vm)/, file);
      assert.doesNotMatch(source, /process\.env|require\(|eval\(|new Function/, file);
    }
  });

  it('uses an isolated Handlebars environment: nothing registered globally, no built-in helpers', () => {
    const engine = new TemplateEngine();
    assert.equal(render('fasttemplate', '{{name}}', { name: 'x' }), 'x');
    assert.equal(engine.render('fasttemplate', 'y', {}, { missing: 'strict', patch: false, budget: new RenderBudget(1000, 1000) }), 'y');
    assert.equal(
      Object.keys(Handlebars.helpers).some((h) => h.startsWith('go_') || h.startsWith('ft_')),
      false,
    );
    assert.ok(Object.hasOwn(Handlebars.helpers, 'lookup'), 'the global environment keeps its own helpers');
  });
});

describe('security: per-ApplicationSet limits', () => {
  it('stops a render that runs past its time limit', () => {
    const big = Array.from({ length: 2000 }, (_, i) => i);
    const template = '{{ range .big }}{{ range $.big }}{{ range $.big }}{{ end }}{{ end }}{{ end }}';
    const a = appset({ goTemplate: true, template: { metadata: { name: 'a' }, spec: { project: 'p', destination: { server: 's' }, note: template } } });
    const started = performance.now();
    assert.throws(
      () => renderApplicationSet(a, one([{ big }]), { limits: { timeLimitMs: 50, maxOutputBytes: 1e9 } }),
      (e: unknown) => {
        const causes: unknown[] = [];
        for (let c: unknown = e; c instanceof Error; c = c.cause) causes.push(c);
        assert.ok(
          causes.some((c) => c instanceof RenderLimitError),
          'caused by a RenderLimitError',
        );
        assert.match((e as Error).message, /spec\.note: rendering took longer than the limit of 50 ms for this ApplicationSet/);
        return true;
      },
    );
    assert.ok(performance.now() - started < 5000);
  });

  it('counts literal text repeated by a loop against the output limit, stopping inside the loop', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => i);
    const a = appset({
      goTemplate: true,
      template: { metadata: { name: 'a' }, spec: { project: 'p', destination: { server: 's' }, note: `{{ range .big }}${'x'.repeat(100)}{{ end }}` } },
    });
    assert.throws(
      () => renderApplicationSet(a, one([{ big }]), { limits: { timeLimitMs: 60_000, maxOutputBytes: 50_000 } }),
      /spec\.note: rendered output exceeds the limit of 50000 characters/,
    );
  });

  it('resolves a dotted fasttemplate name in bounded time even over parameters with shared subtrees', { timeout: 10_000 }, () => {
    // YAML anchors can make every level offer the keys a, a.a, a.a.a, ... pointing at one shared subtree.
    const depth = 40;
    let node: Record<string, unknown> = {};
    for (let level = 0; level < depth; level++) {
      const next: Record<string, unknown> = {};
      for (let k = 1; k <= depth; k++) next[Array(k).fill('a').join('.')] = node;
      node = next;
    }
    const tag = `{{${Array(depth).fill('a').join('.')}.missing}}`;
    assert.throws(() => render('fasttemplate', tag, node), /is missing from the parameter set/);
  });

  it('handles a long line full of unclosed braces in linear time', { timeout: 10_000 }, () => {
    const braces = '{{'.repeat(200_000);
    assert.equal(render('fasttemplate', `${braces}\nx}}`, {}), `${braces}\nx}}`);
  });

  it('refuses a template string with more than 1000 actions (compilation time grows faster than its size)', { timeout: 30_000 }, () => {
    assert.equal(render('goTemplate', '{{ .a }}\n'.repeat(1000), { a: 'v' }).length, 2000);
    assert.throws(
      () => render('goTemplate', '{{ .a }}'.repeat(100_000), { a: 'v' }),
      /the template holds 1001 '\{\{ \}\}' actions; at most 1000 are supported in one string/,
    );
    assert.throws(() => render('fasttemplate', '{{a}}'.repeat(1001), { a: 'v' }), /holds 1001 '\{\{ \}\}' actions/);
  });

  it('stops a render whose output exceeds the size limit, across all Applications of the ApplicationSet', () => {
    const params = Array.from({ length: 50 }, (_, i) => ({ cluster: `c${i}`, url: 'https://x', blob: 'x'.repeat(1000) }));
    const spec = appset().spec;
    const a = appset({ template: { ...spec.template, metadata: { name: '{{cluster}}', annotations: { blob: '{{blob}}' } } } });
    assert.equal(renderApplicationSet(a, one(params.slice(0, 5)), { limits: { timeLimitMs: 5000, maxOutputBytes: 20_000 } }).length, 5);
    assert.throws(
      () => renderApplicationSet(a, one(params), { limits: { timeLimitMs: 5000, maxOutputBytes: 20_000 } }),
      /rendered output exceeds the limit of 20000 characters for this ApplicationSet/,
    );
  });
});
