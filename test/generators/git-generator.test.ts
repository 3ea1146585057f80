import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GitReader } from '../../src/git/git-reader.js';
import { gitGenerator } from '../../src/generators/git.js';
import { GitError } from '../../src/git/git-error.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { testContext } from './test-context.js';

const COMMIT = 'c'.repeat(40);
const REPO = 'https://git.example/monorepo.git';

/** An in-memory repository at one commit (pure unit tests only; the real cache is tested in *.int.test.ts). */
function memoryRepo(files: Record<string, string | Buffer>): GitReader {
  const dirs = new Set<string>();
  for (const f of Object.keys(files)) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return {
    resolveRevision: (_url, rev) =>
      rev === 'missing' ? Promise.reject(new GitError('unknown-revision', { repoURL: REPO, revision: rev }, 'no such revision')) : Promise.resolve(COMMIT),
    listDirectories: () => Promise.resolve([...dirs]),
    listFiles: () => Promise.resolve(Object.keys(files)),
    readFile: (_u, _c, path) => Promise.resolve(Buffer.from(files[path] ?? '')),
  };
}

const repo = memoryRepo({
  'apps/guestbook/kustomization.yaml': 'x',
  'apps/Helm_Chart/Chart.yaml': 'x',
  'apps/excluded/a': 'x',
  'infra/net/x': 'x',
  'clusters/prod/config.json': '{"cluster": {"name": "prod", "replicas": 3}, "enabled": true}',
  'clusters/dev/config.yaml': 'cluster:\n  name: dev\n  replicas: 1\n',
  'clusters/multi/config.yaml': '- cluster: {name: m1}\n- cluster: {name: m2}\n',
  'clusters/empty/config.yaml': '',
  'clusters/skip/config.yaml': 'cluster: {name: skip}',
});
const run = (spec: Record<string, unknown>, git: GitReader = repo) => gitGenerator.generate({ repoURL: REPO, revision: 'main', ...spec }, testContext({ git }));

describe('git generator: directories', () => {
  it('gives path, basename, basenameNormalized and segments; exclude wins', async () => {
    const out = await run({ directories: [{ path: 'apps/*' }, { path: 'apps/excluded', exclude: true }] });
    assert.deepEqual(out, [
      { path: { path: 'apps/Helm_Chart', basename: 'Helm_Chart', basenameNormalized: 'helm-chart', segments: ['apps', 'Helm_Chart'] } },
      { path: { path: 'apps/guestbook', basename: 'guestbook', basenameNormalized: 'guestbook', segments: ['apps', 'guestbook'] } },
    ]);
  });
  it('pathParamPrefix moves the params under <prefix>.path', async () => {
    const out = await run({ directories: [{ path: 'infra/*' }], pathParamPrefix: 'infra' });
    assert.deepEqual(out, [{ infra: { path: { path: 'infra/net', basename: 'net', basenameNormalized: 'net', segments: ['infra', 'net'] } } }]);
  });
  it('values are templated with the directory params', async () => {
    const out = await run({ directories: [{ path: 'infra/*' }], values: { ns: 'ns-{{path.basename}}', seg: '{{path.path}}' } });
    assert.deepEqual(out[0]?.values, { ns: 'ns-net', seg: 'infra/net' });
  });
  it('matching nothing is an empty result, not an error (the repository was read)', async () => {
    assert.deepEqual(await run({ directories: [{ path: 'nothing/*' }] }), []);
  });
  it('an unknown revision is an error, never an empty result', async () => {
    await assert.rejects(
      run({ revision: 'missing', directories: [{ path: '*' }] }),
      (e: unknown) => e instanceof GitError && e.kind === 'unknown-revision' && /revision "missing"/.test(e.message),
    );
  });
});

describe('git generator: files', () => {
  it('nested keys become nested params, plus path.* of the folder and path.filename*', async () => {
    const out = await run({ files: [{ path: 'clusters/prod/config.json' }] });
    assert.deepEqual(out, [
      {
        cluster: { name: 'prod', replicas: 3 },
        enabled: true,
        path: {
          path: 'clusters/prod',
          basename: 'prod',
          basenameNormalized: 'prod',
          segments: ['clusters', 'prod'],
          filename: 'config.json',
          filenameNormalized: 'config.json',
        },
      },
    ]);
  });
  it('a list yields one param set per element; an empty file yields one with only path; exclude wins', async () => {
    const out = await run({ files: [{ path: 'clusters/**/config.yaml' }, { path: 'clusters/skip/*', exclude: true }] });
    assert.deepEqual(
      out.map((p) => (p.cluster as { name?: string } | undefined)?.name ?? `(${(p.path as { basename: string }).basename})`),
      ['dev', '(empty)', 'm1', 'm2'],
    );
  });
  it('pathParamPrefix and values apply to files too', async () => {
    const out = await run({ files: [{ path: 'clusters/dev/*.yaml' }], pathParamPrefix: 'cfg', values: { n: '{{cluster.name}}@{{cfg.path.basename}}' } });
    assert.deepEqual(Object.keys(out[0] ?? {}).sort(), ['cfg', 'cluster', 'values']);
    assert.deepEqual(out[0]?.values, { n: 'dev@dev' });
  });
  const broken: [string, string | Buffer, string][] = [
    ['malformed JSON', '{"a": ', 'malformed'],
    ['malformed YAML', 'a: [1,\nb: :', 'malformed'],
    ['a scalar document', '42', 'malformed'],
    ['a list holding a scalar', '- a: 1\n- 2\n', 'malformed'],
    ['duplicate keys', 'a: 1\na: 2\n', 'malformed'],
    ['non-UTF-8 bytes', Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a]), 'not-utf8'],
  ];
  for (const [name, content, kind] of broken) {
    it(`${name} is an error naming repository, revision and path`, async () => {
      const git = memoryRepo({ 'c/bad.yaml': content });
      await assert.rejects(run({ files: [{ path: 'c/*.yaml' }] }, git), (e: unknown) => {
        assert.ok(e instanceof GitError, String(e));
        assert.equal(e.kind, kind);
        assert.match(e.message, /repository "https:\/\/git.example\/monorepo.git", revision "main \(c{40}\)", path "c\/bad.yaml"/);
        return true;
      });
    });
  }
});

describe('git generator: spec', () => {
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['neither directories nor files', {}, /exactly one of "directories" or "files"/],
    ['both directories and files', { directories: [{ path: '*' }], files: [{ path: '*' }] }, /exactly one of/],
    ['a negative requeue', { directories: [{ path: '*' }], requeueAfterSeconds: -1 }, /requeueAfterSeconds/],
  ];
  for (const [name, spec, message] of bad) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(run(spec), (e: unknown) => e instanceof GeneratorSpecError && message.test(e.message));
    });
  }
  const hostile: [string, Record<string, unknown>][] = [
    ['a repoURL starting with -', { repoURL: '--upload-pack=touch /tmp/pwned', directories: [{ path: '*' }] }],
    ['an ext:: transport', { repoURL: 'ext::sh -c touch% /tmp/pwned', directories: [{ path: '*' }] }],
    ['a password in the URL', { repoURL: 'https://user:secret@git.example/r.git', directories: [{ path: '*' }] }],
    ['a revision starting with -', { revision: '--output=/tmp/x', directories: [{ path: '*' }] }],
    ['a revision with ..', { revision: 'main..evil', directories: [{ path: '*' }] }],
    ['a path starting with -', { directories: [{ path: '--all' }] }],
    ['a .. path', { files: [{ path: '../../etc/passwd' }] }],
    ['an absolute path', { files: [{ path: '/etc/passwd' }] }],
  ];
  for (const [name, spec] of hostile) {
    it(`refuses ${name} before touching Git`, async () => {
      await assert.rejects(gitGenerator.generate({ repoURL: REPO, ...spec }, testContext()), (e: unknown) => {
        assert.ok(e instanceof GitError && e.kind === 'invalid-input', String(e));
        assert.doesNotMatch(e.message, /secret/);
        return true;
      });
    });
  }
});
