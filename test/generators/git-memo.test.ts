import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gitResultKey, GitResultMemo, type GitResultInputs } from '../../src/generators/git-memo.js';
import { parseGitSpec } from '../../src/generators/git-spec.js';

const base: GitResultInputs = {
  spec: parseGitSpec({ repoURL: 'https://git.example/apps.git', revision: 'main', directories: [{ path: 'apps/*' }] }),
  commit: 'a'.repeat(40),
  goTemplate: true,
  options: { newFileGlobbing: false, includeHiddenDirectories: false },
};

describe('git generator memo key', () => {
  it('changes with every input the result depends on', () => {
    const variants: Record<string, GitResultInputs> = {
      repoURL: { ...base, spec: { ...base.spec, repoURL: 'https://git.example/other.git' } },
      commit: { ...base, commit: 'b'.repeat(40) },
      directories: { ...base, spec: { ...base.spec, directories: [{ path: 'apps/*', exclude: true }] } },
      files: { ...base, spec: { ...base.spec, directories: [], files: [{ path: 'apps/*', exclude: false }] } },
      pathParamPrefix: { ...base, spec: { ...base.spec, pathParamPrefix: 'p' } },
      goTemplate: { ...base, goTemplate: false },
      newFileGlobbing: { ...base, options: { ...base.options, newFileGlobbing: true } },
      includeHiddenDirectories: { ...base, options: { ...base.options, includeHiddenDirectories: true } },
    };
    for (const [input, variant] of Object.entries(variants)) assert.notEqual(gitResultKey(variant), gitResultKey(base), `${input} is in the key`);
  });

  it('leaves out what does not change the listing: the revision name, values and the poll interval', () => {
    const same = { ...base, spec: { ...base.spec, revision: 'HEAD', values: { a: 'b' }, requeueAfterSeconds: 5 } };
    assert.equal(gitResultKey(same), gitResultKey(base));
  });

  it('keeps results frozen and does not keep failures', async () => {
    const memo = new GitResultMemo();
    await assert.rejects(memo.get(base, () => Promise.reject(new Error('unreachable'))));
    const result = await memo.get(base, () => Promise.resolve([{ path: { basename: 'a' } }]));
    assert.ok(Object.isFrozen(result[0]) && Object.isFrozen(result[0]?.path));
    assert.equal(await memo.get(base, () => Promise.reject(new Error('not called'))), result);
  });
});
