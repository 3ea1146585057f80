import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globMatch, GlobError } from '../../src/tenancy/glob.js';
import { normalizeGitUrl, sameGitUrl } from '../../src/model/git-url.js';
import { matchesNamespacePattern } from '../../src/tenancy/namespace-patterns.js';

describe('globMatch', () => {
  const cases: Array<[string, string, '/' | undefined, boolean]> = [
    ['*', 'anything/at/all', '/', true],
    ['https://gitlab.com/group/*', 'https://gitlab.com/group/repo', '/', true],
    ['https://gitlab.com/group/*', 'https://gitlab.com/group/repo/owner', '/', false],
    ['https://gitlab.com/group/*/*', 'https://gitlab.com/group/repo/owner', '/', true],
    ['https://gitlab.com/group/**', 'https://gitlab.com/group/a/b/c', '/', true],
    ['team-*', 'team-a/x', undefined, true],
    ['team-?', 'team-ab', undefined, false],
    ['team-[ab]', 'team-b', undefined, true],
    ['team-[!ab]', 'team-b', undefined, false],
    ['team-[a-c]', 'team-c', undefined, true],
    ['{dev,prod}-*', 'prod-eu', undefined, true],
    ['{dev,prod}-*', 'test-eu', undefined, false],
    ['a.b', 'axb', undefined, false],
    ['\\*', '*', undefined, true],
    ['\\*', 'x', undefined, false],
    ['', '', undefined, true],
    ['', 'x', undefined, false],
  ];
  for (const [pattern, value, separator, expected] of cases) {
    it(`${JSON.stringify(pattern)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(value)}${separator ? ' with / separators' : ''}`, () => {
      assert.equal(globMatch(pattern, value, separator), expected);
    });
  }

  it('refuses malformed patterns with a reason', () => {
    assert.throws(() => globMatch('team-[ab', 'x'), GlobError);
    assert.throws(() => globMatch('{a,b', 'x'), /unclosed "\{"/);
    assert.throws(() => globMatch('x\\', 'x'), /lone backslash/);
  });
});

describe('Git URL normalisation', () => {
  it("normalises as Argo CD's NormalizeGitURL does", () => {
    assert.equal(normalizeGitUrl('https://GitHub.com/Org/Repo.git'), 'https://github.com/org/repo');
    assert.equal(normalizeGitUrl(' git@github.com:org/repo.git '), 'git@github.com/org/repo');
    assert.equal(normalizeGitUrl('ssh://git@github.com/org/repo.git'), 'git@github.com/org/repo');
    assert.equal(normalizeGitUrl('not a url'), '');
  });

  it('compares URLs after normalisation, never matching two unparseable ones', () => {
    assert.ok(sameGitUrl('https://github.com/org/repo', 'HTTPS://github.com/org/repo.git'));
    assert.ok(sameGitUrl('git@github.com:org/repo.git', 'ssh://git@github.com/org/repo'));
    assert.ok(!sameGitUrl('http://github.com/org/repo', 'https://github.com/org/repo'));
    assert.ok(!sameGitUrl('not a url', 'also not'));
  });
});

describe('namespace patterns', () => {
  it('matches globs and unanchored /regex/ entries, and ignores broken ones', () => {
    assert.ok(matchesNamespacePattern(['team-*'], 'team-a'));
    assert.ok(!matchesNamespacePattern(['team-*'], 'ops'));
    assert.ok(matchesNamespacePattern(['/^team-[a-z]+$/'], 'team-a'));
    assert.ok(matchesNamespacePattern(['/team/'], 'my-team-ns'), 'unanchored, as in Argo CD');
    assert.ok(!matchesNamespacePattern(['/(/', '[x'], 'anything'));
    assert.ok(!matchesNamespacePattern([], 'team-a'));
  });
});
