import type { PullRequestProvider } from '../../../scm/provider.js';
import { azureDevOpsPullRequests } from './azure-devops.js';
import { bitbucketCloudPullRequests } from './bitbucket-cloud.js';
import { bitbucketServerPullRequests } from './bitbucket-server.js';
import { giteaPullRequests } from './gitea.js';
import { githubPullRequests } from './github.js';
import { gitlabPullRequests } from './gitlab.js';

/** Every pull request provider, by Argo CD's key under `pullRequest` (`github`, `gitlab`, `gitea`, `bitbucketServer`, `bitbucket`, `azuredevops`). */
export const PULL_REQUEST_PROVIDERS: readonly PullRequestProvider[] = [
  githubPullRequests,
  gitlabPullRequests,
  giteaPullRequests,
  bitbucketServerPullRequests,
  bitbucketCloudPullRequests,
  azureDevOpsPullRequests,
];
