import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REPOSITORY_PROVIDERS } from '../../../src/generators/scm-provider/providers/index.js';

describe('SCM provider registry', () => {
  it('offers every Argo CD SCM provider but AWS CodeCommit, under its spec key', () => {
    assert.deepEqual(
      REPOSITORY_PROVIDERS.map((p) => p.name),
      ['github', 'gitlab', 'gitea', 'bitbucketServer', 'bitbucket', 'azureDevOps'],
    );
  });
});
