import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GitReader } from '../../src/git/git-reader.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { testContext } from './test-context.js';

const registry = createGeneratorRegistry();
const matrix = (spec: unknown, git?: GitReader) => registry.generateEntry({ matrix: spec }, testContext(git ? { git } : {}), 'g');
const merge = (spec: unknown) => registry.generateEntry({ merge: spec }, testContext(), 'g');

describe('matrix generator', () => {
  it('is the cartesian product, first child outermost', async () => {
    const out = await matrix({ generators: [{ list: { elements: [{ a: '1' }, { a: '2' }] } }, { list: { elements: [{ b: 'x' }, { b: 'y' }] } }] });
    assert.deepEqual(out, [
      { a: '1', b: 'x' },
      { a: '1', b: 'y' },
      { a: '2', b: 'x' },
      { a: '2', b: 'y' },
    ]);
  });
  it("the second child may use the first child's params in its own fields", async () => {
    const seen: string[] = [];
    const git: GitReader = {
      resolveRevision: (url, rev) => (seen.push(`${url}@${rev}`), Promise.resolve('a'.repeat(40))),
      listDirectories: () => Promise.resolve(['apps', 'apps/web']),
      listFiles: () => Promise.resolve([]),
      readFile: () => Promise.reject(new Error('unused')),
    };
    const out = await matrix(
      {
        generators: [
          {
            list: {
              elements: [
                { repo: 'one', branch: 'main' },
                { repo: 'two', branch: 'dev' },
              ],
            },
          },
          { git: { repoURL: 'https://git.example/{{repo}}.git', revision: '{{branch}}', directories: [{ path: 'apps/*' }] } },
        ],
      },
      git,
    );
    assert.deepEqual(seen, ['https://git.example/one.git@main', 'https://git.example/two.git@dev']);
    assert.equal(out.length, 2);
    assert.deepEqual(out[1], { repo: 'two', branch: 'dev', path: { path: 'apps/web', basename: 'web', basenameNormalized: 'web', segments: ['apps', 'web'] } });
  });
  it("the second child's own values still see its own params", async () => {
    const out = await matrix({
      generators: [{ list: { elements: [{ env: 'prod' }] } }, { clusters: { values: { label: '{{env}}-{{name}}' } } }],
    });
    assert.deepEqual(out[0]?.values, { label: 'prod-in-cluster' });
  });
  it('refuses one, three or zero children', async () => {
    for (const n of [0, 1, 3]) {
      const generators = Array.from({ length: n }, () => ({ list: { elements: [] } }));
      await assert.rejects(matrix({ generators }), /exactly two generators/);
    }
  });
  it('allows one level of nesting and refuses two', async () => {
    const inner = { matrix: { generators: [{ list: { elements: [{ a: '1' }] } }, { list: { elements: [{ b: '2' }] } }] } };
    assert.deepEqual(await matrix({ generators: [inner, { list: { elements: [{ c: '3' }] } }] }), [{ a: '1', b: '2', c: '3' }]);
    const tooDeep = { matrix: { generators: [inner, { list: { elements: [] } }] } };
    await assert.rejects(matrix({ generators: [tooDeep, { list: { elements: [] } }] }), /nested one level only/);
  });
  it('fasttemplate: a name both children set to different values is an error naming it', async () => {
    const fast = (spec: unknown) => registry.generateEntry({ matrix: spec }, testContext({ goTemplate: false }), 'g');
    await assert.rejects(
      fast({ generators: [{ list: { elements: [{ 'k.x': '1' }] } }, { list: { elements: [{ 'k.x': '2' }] } }] }),
      (e: unknown) => e instanceof GeneratorSpecError && /"k\.x"/.test(e.message),
    );
    assert.deepEqual(await fast({ generators: [{ list: { elements: [{ k: '1' }] } }, { list: { elements: [{ k: '1', j: '2' }] } }] }), [{ k: '1', j: '2' }]);
  });
  it('goTemplate: maps merge deeply and the first child wins, as Argo CD overrides parameters', async () => {
    const out = await matrix({
      generators: [
        { list: { elements: [{ k: { x: '1', y: ['a'] }, only1: 1 }] } },
        { list: { elements: [{ k: { x: '2', z: '3', y: ['b', 'c'] }, only2: 2 }] } },
      ],
    });
    assert.deepEqual(out, [{ k: { x: '1', y: ['a'], z: '3' }, only1: 1, only2: 2 }]);
  });
  it('post-selectors of children apply', async () => {
    const out = await matrix({
      generators: [{ list: { elements: [{ a: '1' }, { a: '2' }] }, selector: { matchLabels: { a: '2' } } }, { list: { elements: [{ b: 'x' }] } }],
    });
    assert.deepEqual(out, [{ a: '2', b: 'x' }]);
  });
  it('requeues at the smallest child interval', () => {
    const spec = { generators: [{ git: { repoURL: 'https://x/r', directories: [{ path: '*' }], requeueAfterSeconds: 30 } }, { list: { elements: [] } }] };
    assert.equal(registry.requeueAfterMs({ matrix: spec }, 'g'), 30_000);
    assert.equal(registry.requeueAfterMs({ matrix: { generators: [{ list: {} }, { clusters: {} }] } }, 'g'), undefined);
  });
});

describe('merge generator', () => {
  const base = {
    list: {
      elements: [
        { cluster: 'a', replicas: '1', extra: { x: '1', y: '1' } },
        { cluster: 'b', replicas: '1' },
        { cluster: 'c', replicas: '1' },
      ],
    },
  };
  it('overrides base sets whose merge keys match, keeps base order, drops unmatched overrides', async () => {
    const out = await merge({
      mergeKeys: ['cluster'],
      generators: [
        base,
        {
          list: {
            elements: [
              { cluster: 'b', replicas: '3' },
              { cluster: 'zzz', replicas: '9' },
            ],
          },
        },
        { list: { elements: [{ cluster: 'a', extra: { y: '2' } }] } },
      ],
    });
    assert.deepEqual(out, [
      { cluster: 'a', replicas: '1', extra: { x: '1', y: '2' } },
      { cluster: 'b', replicas: '3' },
      { cluster: 'c', replicas: '1' },
    ]);
  });
  it('several merge keys, and dotted keys reach nested params', async () => {
    const out = await merge({
      mergeKeys: ['p.name', 'env'],
      generators: [
        {
          list: {
            elements: [
              { p: { name: 'a' }, env: 'x', v: '0' },
              { p: { name: 'a' }, env: 'y', v: '0' },
            ],
          },
        },
        { list: { elements: [{ p: { name: 'a' }, env: 'y', v: '1' }] } },
      ],
    });
    assert.deepEqual(
      out.map((p) => p.v),
      ['0', '1'],
    );
  });
  it('duplicate merge-key values in one child are an error', async () => {
    await assert.rejects(
      merge({ mergeKeys: ['cluster'], generators: [base, { list: { elements: [{ cluster: 'a' }, { cluster: 'a' }] } }] }),
      /same merge key values/,
    );
  });
  it('refuses missing mergeKeys and fewer than two children', async () => {
    await assert.rejects(merge({ generators: [base, base] }), /mergeKeys: must name at least one/);
    await assert.rejects(merge({ mergeKeys: ['cluster'], generators: [base] }), /at least two generators/);
  });
});
