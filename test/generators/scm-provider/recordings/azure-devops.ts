// Recorded Azure DevOps Git REST answers (api-version 7.1), trimmed: `{"count", "value"}` collections and
// Azure DevOps' error bodies, whose `typeKey` names the kind of failure.
import type { RecordedAnswer, Recordings } from '../recorded-api.js';

const PROJECT_PATH = '/argoorg/Team%20Platform/_apis/git/repositories';
const GUESTBOOK_ID = 'fbd4ee35-6a0d-4b43-9e7f-0a5c2b8d1e3f';
const MAIN_SHA = '91d7a6a2c3b4e5f60718293a4b5c6d7e8f901a2b';

function repo(id: string, name: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    name,
    url: `https://dev.azure.com/argoorg/7c1b3e9a-project/_apis/git/repositories/${id}`,
    project: { id: '7c1b3e9a-project', name: 'Team Platform', state: 'wellFormed', visibility: 'private' },
    size: 48213,
    remoteUrl: `https://argoorg@dev.azure.com/argoorg/Team%20Platform/_git/${name}`,
    sshUrl: `git@ssh.dev.azure.com:v3/argoorg/Team%20Platform/${name}`,
    webUrl: `https://dev.azure.com/argoorg/Team%20Platform/_git/${name}`,
    isDisabled: false,
    isInMaintenance: false,
    ...extra,
  };
}

function stats(name: string, commitId: string): Record<string, unknown> {
  return {
    commit: { commitId, author: { name: 'Argo Bot', email: 'bot@example.com', date: '2025-03-01T12:00:00Z' }, comment: 'Update' },
    name,
    aheadCount: 0,
    behindCount: 0,
    isBaseVersion: name === 'main',
  };
}

function failure(status: number, code: string, message: string, typeKey: string): RecordedAnswer {
  return {
    status,
    headers: { 'x-tfs-processid': '2f0d5b8e-0000-4000-8000-000000000000', activityid: '6e3a1c9f-1111-4222-8333-444455556666' },
    body: {
      $id: '1',
      innerException: null,
      message: `${code}: ${message}`,
      typeName: `Microsoft.TeamFoundation.Git.Server.${typeKey}, Microsoft.TeamFoundation.Git.Server`,
      typeKey,
      errorCode: 0,
      eventId: 3000,
    },
  };
}

/** The team project `Team Platform` of organisation ArgoOrg: repositories, branch statistics, items and failures. */
export const AZURE_DEVOPS_RECORDINGS: Recordings = {
  [`GET ${PROJECT_PATH}`]: {
    body: {
      value: [
        repo(GUESTBOOK_ID, 'guestbook', { defaultBranch: 'refs/heads/main' }),
        // A repository without commits has no default branch; Argo CD leaves it out.
        repo('0a0a0a0a-0000-4000-8000-000000000001', 'empty', {}),
        repo('0b0b0b0b-0000-4000-8000-000000000002', 'disabled-repo', { defaultBranch: 'refs/heads/main', isDisabled: true }),
      ],
      count: 3,
    },
  },
  [`GET ${PROJECT_PATH}/guestbook/stats/branches?name=main`]: { body: stats('main', MAIN_SHA) },
  [`GET ${PROJECT_PATH}/guestbook/stats/branches?name=gone`]: failure(
    404,
    'TF401175',
    "The version descriptor <Branch: gone > could not be resolved to a version in the repository 'guestbook'.",
    'GitUnresolvableToCommitException',
  ),
  [`GET ${PROJECT_PATH}/disabled-repo/stats/branches?name=main`]: failure(
    404,
    'TF401019',
    'The Git repository with name or identifier disabled-repo does not exist or you do not have permissions for the operation you are attempting.',
    'GitRepositoryNotFoundException',
  ),
  [`GET ${PROJECT_PATH}/guestbook/stats/branches`]: {
    body: { count: 2, value: [stats('main', MAIN_SHA), stats('feature/tls', 'ccccccccccccccccccccccccccccccccccccccc1')] },
  },
  [`GET ${PROJECT_PATH}/disabled-repo/stats/branches`]: failure(
    404,
    'TF401019',
    'The Git repository with name or identifier disabled-repo does not exist or you do not have permissions for the operation you are attempting.',
    'GitRepositoryNotFoundException',
  ),
  [`GET ${PROJECT_PATH}/${GUESTBOOK_ID}/items?path=apps&versionDescriptor.version=main`]: {
    body: { objectId: '5e2f1c', gitObjectType: 'tree', commitId: MAIN_SHA, path: '/apps', isFolder: true, url: 'https://dev.azure.com/x' },
  },
  [`GET ${PROJECT_PATH}/${GUESTBOOK_ID}/items?path=nope&versionDescriptor.version=main`]: failure(
    404,
    'TF401174',
    "The item 'nope' could not be found in the repository 'guestbook' at the version specified by '<Branch: main >'.",
    'GitItemNotFoundException',
  ),
  [`GET ${PROJECT_PATH}/${GUESTBOOK_ID}/items?path=broken&versionDescriptor.version=main`]: failure(
    500,
    'VS402371',
    'An unexpected error occurred.',
    'UnexpectedException',
  ),
  'GET /argoorg/Missing/_apis/git/repositories': failure(
    404,
    'TF200016',
    'The following project does not exist: Missing.',
    'ProjectDoesNotExistWithNameException',
  ),
  // A wrong PAT gets a bare 401 (FedAuth redirects are suppressed).
  'GET /argoorg/Locked/_apis/git/repositories': { status: 401, headers: { 'www-authenticate': 'Basic realm="https://dev.azure.com/"' } },
};

/** The recorded guestbook repository's id and its main commit. */
export const GUESTBOOK = { id: GUESTBOOK_ID, mainSha: MAIN_SHA };
