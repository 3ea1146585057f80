import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PLUGIN_REQUEUE_MS } from '../../src/generators/plugin.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { GoRawJson } from '../../src/templating/go-raw-json.js';
import { goFormat } from '../../src/templating/plain-values.js';
import { goJson } from '../../src/templating/functions-data.js';
import type { PluginAccess, PluginRequest } from '../../src/scm/plugin/access.js';
import { PluginError } from '../../src/scm/plugin/errors.js';
import { testContext } from './test-context.js';

const registry = createGeneratorRegistry();

/** A plugin access that answers `answer` and records what it was asked. */
function fakePlugins(answer: Record<string, unknown>[] | Error): { access: PluginAccess; asked: PluginRequest[] } {
  const asked: PluginRequest[] = [];
  const access: PluginAccess = {
    call: (request) => {
      asked.push(request);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(structuredClone(answer));
    },
  };
  return { access, asked };
}

// The answer and expectations of Argo CD v3.2.6's TestPluginGenerateParams ("simple case with values").
const ANSWER = [{ key1: 'val1', key2: { key2_1: 'val2_1', key2_2: { key2_2_1: 'val2_2_1' } }, key3: 123 }];
const SPEC = {
  configMapRef: { name: 'first-plugin-cm' },
  input: { parameters: { pkey1: 'val1', pkey2: 'val2' } },
  values: { valuekey1: 'valuevalue1', valuekey2: 'templated-{{key1}}' },
};

describe('plugin generator', () => {
  it('fasttemplate: the answer flattened to dotted names, values as text, values.* added (as Argo CD)', async () => {
    const { access, asked } = fakePlugins(ANSWER);
    const ctx = { ...testContext({ goTemplate: false }), plugins: access, applicationSetName: 'myplugin' };
    const params = await registry.generateEntry({ plugin: SPEC }, ctx, 'spec.generators[0]');
    assert.deepEqual(params, [
      {
        key1: 'val1',
        'key2.key2_1': 'val2_1',
        'key2.key2_2.key2_2_1': 'val2_2_1',
        key3: '123',
        'values.valuekey1': 'valuevalue1',
        'values.valuekey2': 'templated-val1',
      },
    ]);
    assert.deepEqual(asked, [{ configMapName: 'first-plugin-cm', applicationSetName: 'myplugin', parameters: { pkey1: 'val1', pkey2: 'val2' } }]);
  });

  it('fasttemplate: values print as Go prints decoded JSON; empty maps and lists give no names', async () => {
    const { access } = fakePlugins([{ big: 2500000, yes: true, none: null, list: ['a', { b: 1.5 }], empty: {}, nothing: [] }]);
    const params = await registry.generateEntry({ plugin: { configMapRef: { name: 'p' } } }, { ...testContext({ goTemplate: false }), plugins: access }, 'g');
    assert.deepEqual(params, [{ big: '2.5e+06', yes: 'true', none: '<nil>', 'list.0': 'a', 'list.1.b': '1.5' }]);
  });

  it('goTemplate: the answer as it is, generator.input.parameters and values (a plugin key of the same name is replaced)', async () => {
    const { access } = fakePlugins([{ ...ANSWER[0], generator: 'from the plugin', values: { x: 'plugin' } }]);
    const params = await registry.generateEntry({ plugin: SPEC }, { ...testContext({ goTemplate: true }), plugins: access }, 'g');
    assert.deepEqual(params, [
      {
        key1: 'val1',
        key2: { key2_1: 'val2_1', key2_2: { key2_2_1: 'val2_2_1' } },
        key3: 123,
        generator: { input: { parameters: { pkey1: new GoRawJson('val1'), pkey2: new GoRawJson('val2') } } },
        values: { valuekey1: 'valuevalue1', valuekey2: 'templated-val1' },
      },
    ]);
  });

  it('goTemplate: an input parameter prints as Argo CD prints its raw JSON struct, and toJson gives the value', () => {
    const raw = new GoRawJson('eu');
    assert.equal(goFormat(raw), '{[34 101 117 34]}');
    assert.equal(goJson({ a: raw }), '{"a":"eu"}');
  });

  it("goTemplate without values keeps the plugin's own `values` key, as Argo CD does", async () => {
    const { access } = fakePlugins([{ values: { x: 'plugin' } }]);
    const params = await registry.generateEntry({ plugin: { configMapRef: { name: 'p' } } }, { ...testContext(), plugins: access }, 'g');
    assert.deepEqual(params, [{ values: { x: 'plugin' }, generator: { input: { parameters: {} } } }]);
  });

  it('a post-selector sees the plugin parameters', async () => {
    const { access } = fakePlugins([{ env: 'prod' }, { env: 'dev' }]);
    const entry = { plugin: { configMapRef: { name: 'p' } }, selector: { matchLabels: { env: 'prod' } } };
    const params = await registry.generateEntry(entry, { ...testContext({ goTemplate: false }), plugins: access }, 'g');
    assert.deepEqual(params, [{ env: 'prod' }]);
  });

  it('requeues as Argo CD: every 30 minutes by default, requeueAfterSeconds when set, never with 0', () => {
    assert.equal(DEFAULT_PLUGIN_REQUEUE_MS, 30 * 60_000);
    assert.equal(registry.requeueAfterMs({ plugin: { configMapRef: { name: 'p' } } }, 'g'), 30 * 60_000);
    assert.equal(registry.requeueAfterMs({ plugin: { configMapRef: { name: 'p' }, requeueAfterSeconds: 30 } }, 'g'), 30_000);
    assert.equal(registry.requeueAfterMs({ plugin: { configMapRef: { name: 'p' }, requeueAfterSeconds: 0 } }, 'g'), undefined);
  });

  it('a failing plugin fails the whole entry (never a partial result)', async () => {
    const { access } = fakePlugins(new PluginError('plugin ConfigMap argocd/p: POST p.example/api/v1/getparams.execute answered 500'));
    await assert.rejects(registry.generateEntry({ plugin: { configMapRef: { name: 'p' } } }, { ...testContext(), plugins: access }, 'g'), /answered 500/);
  });

  it("as a matrix's second child, its input parameters name the first child's params (Argo CD's pull request example)", async () => {
    const { access, asked } = fakePlugins([{ digest: 'sha256:1' }]);
    const entry = {
      matrix: {
        generators: [
          { list: { elements: [{ branch: 'feature-1' }, { branch: 'feature-2' }] } },
          { plugin: { configMapRef: { name: 'p' }, input: { parameters: { branch: '{{branch}}' } }, values: { link: 'tree/{{branch}}' } } },
        ],
      },
    };
    const params = await registry.generateEntry(entry, { ...testContext({ goTemplate: false }), plugins: access }, 'g');
    assert.deepEqual(
      asked.map((a) => a.parameters),
      [{ branch: 'feature-1' }, { branch: 'feature-2' }],
    );
    assert.deepEqual(params, [
      { branch: 'feature-1', digest: 'sha256:1', 'values.link': 'tree/feature-1' },
      { branch: 'feature-2', digest: 'sha256:1', 'values.link': 'tree/feature-2' },
    ]);
  });

  const bad: [string, unknown, RegExp][] = [
    ['no configMapRef', {}, /plugin\.configMapRef: must be an object/],
    ['an empty ConfigMap name', { configMapRef: { name: '' } }, /plugin\.configMapRef\.name: must be a non-empty string/],
    ['input.parameters that are not a map', { configMapRef: { name: 'p' }, input: { parameters: ['a'] } }, /plugin\.input\.parameters: must be an object/],
    ['values that are not strings', { configMapRef: { name: 'p' }, values: { a: 1 } }, /plugin\.values\.a: must be a string/],
    ['a negative requeue', { configMapRef: { name: 'p' }, requeueAfterSeconds: -1 }, /plugin\.requeueAfterSeconds/],
  ];
  for (const [title, spec, message] of bad) {
    it(`refuses ${title}`, async () => {
      const { access, asked } = fakePlugins([]);
      await assert.rejects(
        registry.generateEntry({ plugin: spec }, { ...testContext(), plugins: access }, 'g'),
        (e: unknown) => e instanceof GeneratorSpecError && message.test(e.message),
      );
      assert.equal(asked.length, 0);
    });
  }

  it('refuses to run where no plugin may be reached', async () => {
    await assert.rejects(registry.generateEntry({ plugin: { configMapRef: { name: 'p' } } }, testContext(), 'g'), /plugin generators cannot run here/);
  });
});
