import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GitError } from '../../src/git/git-error.js';
import { validateRepoPath, validateRepoURL, validateRevision, withoutPassword } from '../../src/git/input-validation.js';

const isInvalid = (e: unknown): boolean => e instanceof GitError && e.kind === 'invalid-input';

describe('validateRepoURL', () => {
  for (const url of [
    'https://github.com/argoproj/argo-cd.git',
    'http://127.0.0.1:8080/git/r.git',
    'ssh://git@host/r.git',
    'git@github.com:org/repo.git',
    'file:///tmp/r.git',
    'https://user@host/r.git',
  ]) {
    it(`accepts ${url}`, () => assert.doesNotThrow(() => validateRepoURL(url)));
  }
  const refused: [string, RegExp][] = [
    ['', /empty/],
    ['-uhack', /option injection/],
    ['--upload-pack=evil', /option injection/],
    ['ext::sh -c evil', /whitespace|transport/],
    ['ext::evil', /not a URL|transport/],
    ['fd::3', /not a URL|transport/],
    ['ftp://host/r', /transport "ftp:"/],
    ['https://host/r\nx', /control|whitespace/],
    ['https://user:pw@host/r.git', /embeds a password/],
    ['relative/path', /not a URL/],
  ];
  for (const [url, message] of refused) {
    it(`refuses ${JSON.stringify(url)}`, () => {
      assert.throws(
        () => validateRepoURL(url),
        (e: unknown) => isInvalid(e) && message.test((e as Error).message),
      );
    });
  }
  it('never echoes the password it refuses', () => {
    assert.throws(
      () => validateRepoURL('https://me:hunter2@host/r.git'),
      (e: unknown) => isInvalid(e) && !(e as Error).message.includes('hunter2'),
    );
    assert.equal(withoutPassword('https://me:hunter2@host/r.git'), 'https://me:***@host/r.git');
  });
});

describe('validateRevision', () => {
  for (const rev of ['HEAD', 'main', 'release/1.2', 'v1.0.0', 'a'.repeat(40), 'refs/heads/main', 'feature_x-1']) {
    it(`accepts ${rev}`, () => assert.doesNotThrow(() => validateRevision('r', rev)));
  }
  for (const rev of ['-x', '--output=/tmp/x', 'a..b', 'with space', 'semi;colon', '$(id)', 'a\nb']) {
    it(`refuses ${JSON.stringify(rev)}`, () => assert.throws(() => validateRevision('r', rev), isInvalid));
  }
});

describe('validateRepoPath', () => {
  for (const path of ['apps/*', 'a/b/c.yaml', '**/config.json', '.hidden/x', 'a..b/c']) {
    it(`accepts ${path}`, () => assert.doesNotThrow(() => validateRepoPath('r', 'main', path)));
  }
  for (const path of ['', '-x', '../x', 'a/../../x', '..', '/etc/passwd', 'C:/x', 'a\\..\\b', 'a\0b']) {
    it(`refuses ${JSON.stringify(path)}`, () => assert.throws(() => validateRepoPath('r', 'main', path), isInvalid));
  }
});
