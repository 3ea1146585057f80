import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { readYamlDocuments } from '../../src/cli/render-applicationsets.js';
import { parseParamsFile } from '../../src/generators/file-content.js';
import { gitPathspecMatcher } from '../../src/generators/git-pathspec.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import { selectFiles, selectPaths, withoutHiddenDirectories } from '../../src/generators/path-params.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { flattenParams } from '../../src/generators/params.js';
import { goTypedValue } from '../../src/generators/go-typed.js';
import { pullRequestParams } from '../../src/generators/pull-request/generator.js';
import { orNil } from '../../src/generators/pull-request/providers/answer.js';
import { goJson } from '../../src/templating/functions-data.js';
import { clusterSecret, testContext } from './test-context.js';

// One table per rendering difference the side-by-side comparison with Argo CD v3.2.6 found. Each case is
// what Argo CD's own code does (applicationset/generators, reposerver/repository, util/git); every one of
// them failed before the fix.

const where = { repoURL: 'https://git.example/org/repo.git', revision: 'main', path: 'cfg/conf.yaml' };
const files = (...patterns: Array<[string, boolean?]>) => patterns.map(([path, exclude]) => ({ path, exclude: exclude ?? false }));

describe('Argo CD parity: git files match with git ls-files pathspecs by default', () => {
  const tree = ['cfg/conf.yaml', 'cfg/a/conf.yaml', 'cfg/a/b/conf.yaml', 'cfg/a/b/other.json', 'apps/web/config.json', 'apps/web/x/config.json'];
  const cases: Array<[string, string, string[]]> = [
    ['`*` crosses folders', 'cfg/*/conf.yaml', ['cfg/a/b/conf.yaml', 'cfg/a/conf.yaml']],
    ['`*` at the end reaches every file below', 'cfg/*', ['cfg/a/b/conf.yaml', 'cfg/a/b/other.json', 'cfg/a/conf.yaml', 'cfg/conf.yaml']],
    ['`**` is `*`', 'apps/**/config.json', ['apps/web/config.json', 'apps/web/x/config.json']],
    ['a plain folder names every file below it', 'cfg/a', ['cfg/a/b/conf.yaml', 'cfg/a/b/other.json', 'cfg/a/conf.yaml']],
    ['a plain file names itself', 'cfg/conf.yaml', ['cfg/conf.yaml']],
    ['`?` is one character, `/` included', 'cfg/a?conf.yaml', ['cfg/a/conf.yaml']],
    ['a class', 'cfg/a/b/*.[jy]son', ['cfg/a/b/other.json']],
  ];
  for (const [name, pattern, expected] of cases) {
    it(name, () => assert.deepEqual(tree.filter(gitPathspecMatcher(pattern)).sort(), expected));
  }
  it('an exclude pattern follows the same rules and wins', () => {
    assert.deepEqual(selectFiles(tree, files(['cfg/*'], ['cfg/a/b/*', true]), false).sort(), ['cfg/a/conf.yaml', 'cfg/conf.yaml']);
  });
  it('--enable-new-git-file-globbing keeps `*` within a folder', () => {
    assert.deepEqual(selectFiles(tree, files(['cfg/*/conf.yaml']), true), ['cfg/a/conf.yaml']);
  });
});

describe('Argo CD parity: directory globs are Go path.Match', () => {
  it('`[!g]` is the class of `!` and `g`, not a negation (Go negates with `^`)', () => {
    const dirs = ['apps/guestbook', 'apps/billing', 'apps/!x'];
    assert.deepEqual(selectPaths(dirs, files(['apps/[!g]*']), true), ['apps/guestbook', 'apps/!x']);
    assert.deepEqual(selectPaths(dirs, files(['apps/[^g]*']), true), ['apps/billing', 'apps/!x']);
  });
});

describe('Argo CD parity: hidden directories are not listed', () => {
  it('leaves out `.name` folders and everything below them', () => {
    assert.deepEqual(withoutHiddenDirectories(['apps', 'apps/.hidden', 'apps/.hidden/x', '.github', '.github/workflows', 'apps/web', 'apps/web.v2']), [
      'apps',
      'apps/web',
      'apps/web.v2',
    ]);
  });
  it('the git generator lists them with --include-hidden-directories only', async () => {
    const git = {
      resolveRevision: () => Promise.resolve('c0ffee'),
      listDirectories: () => Promise.resolve(['apps', 'apps/.hidden', 'apps/web']),
      listFiles: () => Promise.reject(new Error('unused')),
      readFile: () => Promise.reject(new Error('unused')),
    };
    const entry = { git: { repoURL: where.repoURL, directories: [{ path: 'apps/*' }] } };
    const names = async (includeHiddenDirectories: boolean): Promise<unknown[]> =>
      (await createGeneratorRegistry({ git: { newFileGlobbing: false, includeHiddenDirectories } }).generateEntry(entry, testContext({ git }), 'g')).map(
        (p) => (p['path'] as Record<string, unknown>)['basename'],
      );
    assert.deepEqual(await names(false), ['web']);
    assert.deepEqual(await names(true), ['.hidden', 'web']);
  });
});

describe('Argo CD parity: merge keys', () => {
  const registry = createGeneratorRegistry();
  const merge = (mergeKeys: string[]) => ({
    merge: {
      mergeKeys,
      generators: [
        {
          list: {
            elements: [
              { name: 'a', path: { basename: 'a' }, v: 'base' },
              { name: 'b', path: { basename: 'b' }, v: 'base' },
            ],
          },
        },
        { list: { elements: [{ name: 'b', path: { basename: 'b' }, v: 'override' }] } },
      ],
    },
  });
  it('fasttemplate: a dotted key is one flat parameter name (path.basename)', async () => {
    const out = await registry.generateEntry(
      {
        merge: {
          mergeKeys: ['path.basename'],
          generators: [
            { git: { repoURL: where.repoURL, directories: [{ path: 'apps/*' }] } },
            { list: { elements: [{ 'path.basename': 'web', extra: 'x' }] } },
          ],
        },
      },
      testContext({
        goTemplate: false,
        git: {
          resolveRevision: () => Promise.resolve('c0ffee'),
          listDirectories: () => Promise.resolve(['apps/api', 'apps/web']),
          listFiles: () => Promise.reject(new Error('unused')),
          readFile: () => Promise.reject(new Error('unused')),
        },
      }),
      'g',
    );
    assert.deepEqual(
      out.map((p) => p['extra'] ?? '-'),
      ['-', 'x'],
    );
  });
  it('goTemplate: only top-level keys; a dotted key reads nothing, so the sets collide as in Argo CD', async () => {
    await assert.rejects(registry.generateEntry(merge(['path.basename']), testContext({ goTemplate: true }), 'g'), /same merge key values \[null\]/);
    const out = await registry.generateEntry(merge(['name']), testContext({ goTemplate: true }), 'g');
    assert.deepEqual(
      out.map((p) => p['v']),
      ['base', 'override'],
    );
  });
});

describe('Argo CD parity: the clusters generator', () => {
  const secrets: V1Secret[] = [
    clusterSecret('prod', { name: 'prod', server: 'https://prod.example' }, { env: 'prod' }),
    clusterSecret('bare', { name: 'bare', server: 'https://bare.example' }),
  ];
  const registry = createGeneratorRegistry();
  it('flatList: one param set listing every cluster as `clusters`', async () => {
    const out = await registry.generateEntry({ clusters: { flatList: true } }, testContext({ secrets }), 'g');
    assert.equal(out.length, 1);
    assert.deepEqual(
      ((out[0] as Record<string, unknown>)['clusters'] as Array<Record<string, unknown>>).map((c) => c['name']),
      ['in-cluster', 'bare', 'prod'],
    );
  });
  it('goTemplate metadata: none for the local cluster; labels or annotations only when the Secret has some', async () => {
    const out = await registry.generateEntry({ clusters: {} }, testContext({ secrets }), 'g');
    const byName = new Map(out.map((p) => [p['name'], p]));
    assert.equal(Object.hasOwn(byName.get('in-cluster') ?? {}, 'metadata'), false);
    assert.deepEqual(Object.keys((byName.get('bare')?.['metadata'] ?? {}) as object), ['labels']);
    assert.equal(Object.hasOwn((byName.get('prod')?.['metadata'] ?? {}) as object, 'annotations'), false);
  });
});

describe('Argo CD parity: git files are YAML 1.1', () => {
  const parse = (text: string) => parseParamsFile(Buffer.from(text), where)[0];
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['on / off / yes / no / y / n are booleans', 'a: on\nb: off\nc: yes\nd: no\ne: y\nf: N\n', { a: true, b: false, c: true, d: false, e: true, f: false }],
    ['a leading 0 is octal, underscores group digits', 'mode: 0755\ncount: 1_000\n', { mode: 493, count: 1000 }],
    ['such keys become the strings Argo CD sees', 'on: x\nn: y\n', { true: 'x', false: true }],
    ['no base-60 numbers and no timestamps (go-yaml v2 has neither)', 't: 1:30\nd: 2001-12-14\n', { t: '1:30', d: '2001-12-14' }],
    ['quoted scalars stay strings', 'a: "on"\nb: \'0755\'\n', { a: 'on', b: '0755' }],
  ];
  for (const [name, text, expected] of cases) it(name, () => assert.deepEqual(parse(text), expected));
});

describe('Argo CD parity: fasttemplate list elements hold strings', () => {
  const registry = createGeneratorRegistry();
  const cases: Array<[string, unknown, RegExp]> = [
    ['a number', { env: 'dev', replicas: 3 }, /list\.elements\[0\]\.replicas: is number/],
    ['a boolean', { env: 'dev', on: true }, /list\.elements\[0\]\.on: is boolean/],
    ['a map other than values', { env: 'dev', extra: { a: 'b' } }, /list\.elements\[0\]\.extra: is a map/],
    ['a value that is not a string', { env: 'dev', values: { n: 1 } }, /list\.elements\[0\]\.values\.n: is number/],
  ];
  for (const [name, element, message] of cases) {
    it(`refuses ${name}, naming it`, async () => {
      await assert.rejects(
        registry.generateEntry({ list: { elements: [element] } }, testContext({ goTemplate: false }), 'g'),
        (error: unknown) => error instanceof GeneratorSpecError && message.test(error.message),
      );
    });
  }
  it('accepts strings and a values map of strings; goTemplate and elementsYaml take any value', async () => {
    assert.equal(
      (await registry.generateEntry({ list: { elements: [{ env: 'dev', values: { a: 'b' } }] } }, testContext({ goTemplate: false }), 'g')).length,
      1,
    );
    assert.equal((await registry.generateEntry({ list: { elements: [{ n: 3 }] } }, testContext({ goTemplate: true }), 'g')).length, 1);
    assert.equal((await registry.generateEntry({ list: { elementsYaml: '- n: 3\n' } }, testContext({ goTemplate: false }), 'g')).length, 1);
  });
});

describe('Argo CD parity: fasttemplate parameters are one flat map of names', () => {
  const registry = createGeneratorRegistry();
  const gitWith = (content: string) =>
    testContext({
      goTemplate: false,
      git: {
        resolveRevision: () => Promise.resolve('c0ffee'),
        listDirectories: () => Promise.resolve(['apps/web']),
        listFiles: () => Promise.resolve(['cfg/team/conf.yaml']),
        readFile: () => Promise.resolve(Buffer.from(content)),
      },
    });
  it('git files: lists and maps flatten to dotted names and every value is Go %v text', async () => {
    const text = 'features: [metrics, tracing]\nnothing: ~\nbig: 2500000\nport: 8080\nnested: {a: {b: on}}\nempty: {}\n';
    const [set] = await registry.generateEntry({ git: { repoURL: where.repoURL, files: [{ path: 'cfg/*/conf.yaml' }] } }, gitWith(text), 'g');
    assert.deepEqual(set, {
      'features.0': 'metrics',
      'features.1': 'tracing',
      nothing: '<nil>',
      big: '2.5e+06',
      port: '8080',
      'nested.a.b': 'true',
      path: 'cfg/team',
      'path.basename': 'team',
      'path.basenameNormalized': 'team',
      'path[0]': 'cfg',
      'path[1]': 'team',
      'path.filename': 'conf.yaml',
      'path.filenameNormalized': 'conf.yaml',
    });
  });
  it('git directories with pathParamPrefix and values: `prefix.path`, `prefix.path[0]`, `values.name`', async () => {
    const spec = { git: { repoURL: where.repoURL, directories: [{ path: 'apps/*' }], pathParamPrefix: 'src', values: { team: 'x' } } };
    const [set] = await registry.generateEntry(spec, gitWith(''), 'g');
    assert.deepEqual(Object.keys(set ?? {}).sort(), [
      'src.path',
      'src.path.basename',
      'src.path.basenameNormalized',
      'src.path[0]',
      'src.path[1]',
      'values.team',
    ]);
  });
  it('merge: a list element`s `values.kafka` overrides the clusters generator`s `values.kafka`', async () => {
    const secrets = [clusterSecret('prod', { name: 'prod', server: 'https://prod.example' }, { env: 'prod' })];
    const spec = {
      merge: {
        mergeKeys: ['server'],
        generators: [
          { clusters: { selector: { matchLabels: { env: 'prod' } }, values: { kafka: 'false', redis: 'false' } } },
          { list: { elements: [{ server: 'https://prod.example', 'values.kafka': 'true' }] } },
        ],
      },
    };
    const [set] = await registry.generateEntry(spec, testContext({ goTemplate: false, secrets }), 'g');
    assert.equal(set?.['values.kafka'], 'true');
    assert.equal(set?.['values.redis'], 'false');
    assert.equal(set?.['metadata.labels.env'], 'prod');
  });
});

describe('Argo CD parity: YAML is read as Kubernetes reads it (1.1)', () => {
  it('list elementsYaml: `yes` is true and `0755` is 493', async () => {
    const out = await createGeneratorRegistry().generateEntry({ list: { elementsYaml: '- a: yes\n  mode: 0755\n  q: "on"\n' } }, testContext(), 'g');
    assert.deepEqual(out, [{ a: true, mode: 493, q: 'on' }]);
  });
  it('manifest files read by `appset render`', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yaml11-'));
    writeFileSync(join(dir, 'a.yaml'), 'kind: X\nspec: {a: on, b: off, c: ~, d: 0x1F}\n---\nkind: Y\n');
    // Even `Y` is a boolean in YAML 1.1, as kubectl reads it.
    assert.deepEqual(readYamlDocuments(join(dir, 'a.yaml')), [{ kind: 'X', spec: { a: true, b: false, c: null, d: 31 } }, { kind: true }]);
  });
});

describe('Argo CD parity: post selectors see params as Argo CD flattens them', () => {
  const registry = createGeneratorRegistry();
  const secrets = [clusterSecret('prod', { name: 'prod', server: 'https://prod.example' }, { tier: 'prod' })];
  const names = async (entry: unknown, goTemplate: boolean) =>
    (await registry.generateEntry(entry, testContext({ goTemplate, secrets }), 'g')).map((p) => p['name'] ?? p['nameNormalized']);
  it('goTemplate: cluster labels and `values` are typed Go maps, seen whole, so `metadata.labels.tier` names nothing', async () => {
    const byLabel = { clusters: { values: { env: 'prod' } }, selector: { matchLabels: { 'metadata.labels.tier': 'prod' } } };
    const byValue = { clusters: { values: { env: 'prod' } }, selector: { matchLabels: { 'values.env': 'prod' } } };
    assert.deepEqual(await names(byLabel, true), []);
    assert.deepEqual(await names(byValue, true), []);
    assert.deepEqual(flattenParams({ metadata: { labels: goTypedValue({ tier: 'prod', a: 'b' }) } }), { 'metadata.labels': 'map[a:b tier:prod]' });
  });
  it('fasttemplate: the same selectors match, the names being flat', async () => {
    assert.deepEqual(await names({ clusters: {}, selector: { matchLabels: { 'metadata.labels.tier': 'prod' } } }, false), ['prod']);
    assert.deepEqual(await names({ clusters: { values: { env: 'prod' } }, selector: { matchLabels: { 'values.env': 'prod' } } }, false), [
      'in-cluster',
      'prod',
    ]);
  });
  it('goTemplate: numbers and nulls print as Go %v prints them', async () => {
    const list = (selector: unknown) => ({ list: { elements: [{ name: 'a', n: 2500000, z: null }] }, selector });
    assert.deepEqual(await names(list({ matchLabels: { n: '2.5e+06' } }), true), ['a']);
    assert.deepEqual(await names(list({ matchLabels: { z: '<nil>' } }), true), ['a']);
  });
});

describe('Argo CD parity: pull request labels in goTemplate', () => {
  const pull = (labels: string[]) => ({ number: 1, title: 't', branch: 'b', targetBranch: 'main', headSha: 'a'.repeat(40), labels, author: 'x' });
  it('GitHub and Gitea give a nil list when there are none (`toJson .labels` is null), others an empty one', () => {
    assert.equal(goJson(pullRequestParams(pull(orNil([])))['labels']), 'null');
    assert.equal(goJson(pullRequestParams(pull([]))['labels']), '[]');
    assert.equal(goJson(pullRequestParams(pull(orNil(['a'])))['labels']), '["a"]');
    assert.equal(Object.hasOwn(pullRequestParams(pull(['a']), false), 'labels'), false);
  });
});
