import type { RepositoryProvider } from '../../../scm/provider.js';
import { azureDevOpsRepositories } from './azure-devops.js';
import { bitbucketCloudRepositories } from './bitbucket-cloud.js';
import { bitbucketServerRepositories } from './bitbucket-server.js';
import { giteaRepositories } from './gitea.js';
import { githubRepositories } from './github.js';
import { gitlabRepositories } from './gitlab.js';

/** Every SCM provider of the `scmProvider` generator, by Argo CD's key (AWS CodeCommit is not among them). */
export const REPOSITORY_PROVIDERS: readonly RepositoryProvider[] = [
  githubRepositories,
  gitlabRepositories,
  giteaRepositories,
  bitbucketServerRepositories,
  bitbucketCloudRepositories,
  azureDevOpsRepositories,
];
