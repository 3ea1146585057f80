import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { directoryPathParams, filePathParams, readPathPatterns, selectPaths, withPathParams } from '../../src/generators/path-params.js';
import { GitError } from '../../src/git/git-error.js';

describe('directory path params', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['apps/guestbook', { path: 'apps/guestbook', basename: 'guestbook', basenameNormalized: 'guestbook', segments: ['apps', 'guestbook'] }],
    ['top', { path: 'top', basename: 'top', basenameNormalized: 'top', segments: ['top'] }],
    ['a/b/My_App.v2', { path: 'a/b/My_App.v2', basename: 'My_App.v2', basenameNormalized: 'my-app.v2', segments: ['a', 'b', 'My_App.v2'] }],
    ['clusters/.hidden', { path: 'clusters/.hidden', basename: '.hidden', basenameNormalized: 'hidden', segments: ['clusters', '.hidden'] }],
  ];
  for (const [dir, expected] of cases) {
    it(dir, () => assert.deepEqual(directoryPathParams(dir), expected));
  }
});

describe('file path params', () => {
  it('names the folder and the file', () => {
    assert.deepEqual(filePathParams('cluster-config/engineering/Prod_Config.JSON'), {
      path: 'cluster-config/engineering',
      basename: 'engineering',
      basenameNormalized: 'engineering',
      segments: ['cluster-config', 'engineering'],
      filename: 'Prod_Config.JSON',
      filenameNormalized: 'prod-config.json',
    });
  });
  it('a file at the root has "." as its folder, as Go path.Dir says', () => {
    assert.deepEqual(filePathParams('config.yaml'), {
      path: '.',
      basename: '.',
      basenameNormalized: '',
      segments: ['.'],
      filename: 'config.yaml',
      filenameNormalized: 'config.yaml',
    });
  });
});

describe('pathParamPrefix', () => {
  const params = directoryPathParams('apps/a');
  it('no prefix puts params under path', () => assert.deepEqual(withPathParams(params, ''), { path: params }));
  it('a prefix puts them under <prefix>.path', () => assert.deepEqual(withPathParams(params, 'myRepo'), { myRepo: { path: params } }));
  it('a dotted prefix nests', () => assert.deepEqual(withPathParams(params, 'a.b'), { a: { b: { path: params } } }));
});

describe('selectPaths', () => {
  const dirs = ['apps', 'apps/a', 'apps/b', 'apps/b/nested', 'apps/.hidden', 'infra', 'infra/x', 'apps-old'];
  const table: [string, { path: string; exclude: boolean }[], boolean, string[]][] = [
    ['* stays within one folder', [{ path: 'apps/*', exclude: false }], true, ['apps/a', 'apps/b', 'apps/.hidden']],
    [
      'exclude wins whatever the order',
      [
        { path: 'apps/b', exclude: true },
        { path: 'apps/*', exclude: false },
      ],
      true,
      ['apps/a', 'apps/.hidden'],
    ],
    ['** is just * for directories (Go path.Match)', [{ path: 'apps/**', exclude: false }], true, ['apps/a', 'apps/b', 'apps/.hidden']],
    ['** spans folders for files', [{ path: 'apps/**', exclude: false }], false, ['apps/a', 'apps/b', 'apps/b/nested', 'apps/.hidden']],
    ['literal path', [{ path: 'infra/x', exclude: false }], true, ['infra/x']],
    ['character class', [{ path: 'apps/[ab]', exclude: false }], true, ['apps/a', 'apps/b']],
    ['only excludes select nothing', [{ path: 'apps/*', exclude: true }], true, []],
    ['braces are literal for directories', [{ path: 'apps/{a,b}', exclude: false }], true, []],
    ['braces expand for files', [{ path: 'apps/{a,b}', exclude: false }], false, ['apps/a', 'apps/b']],
  ];
  for (const [name, patterns, segmentGlobs, expected] of table) {
    it(name, () => assert.deepEqual(selectPaths(dirs, patterns, segmentGlobs), expected));
  }
});

describe('readPathPatterns refuses hostile globs', () => {
  const where = { repoURL: 'https://example.test/r.git', revision: 'main' };
  for (const path of ['-apps/*', '../outside/*', 'apps/../../x', '/etc/*', 'C:\\x', 'a\nb']) {
    it(JSON.stringify(path), () => {
      assert.throws(
        () => readPathPatterns([{ path }], 'git.directories', where),
        (e: unknown) => {
          assert.ok(e instanceof GitError && e.kind === 'invalid-input', String(e));
          assert.match(e.message, /repository "https:\/\/example.test\/r.git", revision "main", path/);
          return true;
        },
      );
    });
  }
  it('accepts an ordinary glob and reads exclude', () => {
    assert.deepEqual(readPathPatterns([{ path: 'apps/*' }, { path: 'apps/x', exclude: true }], 'f', where), [
      { path: 'apps/*', exclude: false },
      { path: 'apps/x', exclude: true },
    ]);
  });
});
