// Answers of Azure DevOps' REST API (`GET /{organization}/{project}/_apis/git/pullrequests`), as recorded from
// dev.azure.com and trimmed to the fields the provider reads plus a few around them.
import type { RecordedAnswer } from '../recorded-api.js';

/** The parts of a pull request a test varies; `complete: false` leaves out the merge commit, as Azure does while it computes it. */
export interface AzurePullShape {
  readonly id: number;
  readonly repo: string;
  readonly title?: string;
  readonly source?: string;
  readonly target?: string;
  readonly commit?: string;
  readonly labels?: readonly string[];
  readonly uniqueName?: string;
  readonly complete?: boolean;
}

/** One entry of `value`, shaped as Azure DevOps returns it. */
export function azurePull(pull: AzurePullShape): unknown {
  const project = { id: 'a7573007-bbb3-4341-b726-0c4148a07853', name: 'Web Apps', state: 'wellFormed', visibility: 'private' };
  const commit = (id: string): unknown => ({ commitId: id, url: `https://dev.azure.com/platform-org/_apis/git/repositories/3411ebc1/commits/${id}` });
  return {
    repository: {
      id: '3411ebc1-d5aa-464f-9615-0b527bc66719',
      name: pull.repo,
      url: 'https://dev.azure.com/platform-org/_apis/git/repositories/3411ebc1',
      project,
    },
    pullRequestId: pull.id,
    codeReviewId: pull.id,
    status: 'active',
    createdBy: {
      displayName: 'Dev Eloper',
      id: 'd6245f20-2af8-44f4-9451-8107cb2767db',
      uniqueName: pull.uniqueName ?? `dev${pull.id}@contoso.com`,
      descriptor: 'aad.ZDYyNDVmMjAtMmFmOC03NGY0LTk0NTEtODEwN2NiMjc2N2Ri',
    },
    creationDate: '2025-11-03T10:00:00.000Z',
    title: pull.title ?? `PR ${pull.id}`,
    description: '',
    sourceRefName: `refs/heads/${pull.source ?? `feature/${pull.id}`}`,
    targetRefName: `refs/heads/${pull.target ?? 'main'}`,
    mergeStatus: 'succeeded',
    isDraft: false,
    mergeId: 'f5fc8381-3fb2-49fe-8a0d-27dcc2d6ef82',
    ...(pull.complete === false ? {} : { lastMergeSourceCommit: commit(pull.commit ?? `${pull.id}`.padStart(40, 'f')) }),
    lastMergeTargetCommit: commit('41b3b5d1b7a1c4e8f2a9d6c3b0e7f4a1d8c5b2e9'),
    reviewers: [],
    labels: (pull.labels ?? []).map((name, i) => ({ id: `${i}9a3e2c1-0000-4000-8000-000000000000`, name, active: true })),
    url: `https://dev.azure.com/platform-org/a7573007/_apis/git/repositories/3411ebc1/pullRequests/${pull.id}`,
    supportsIterations: true,
  };
}

/** A collection answer: `{value, count}`. */
export const azurePage = (value: readonly unknown[]): unknown => ({ value, count: value.length });

/** Azure DevOps' 404 for a project that does not exist, which Argo CD reads as "repository not found". */
export const AZURE_PROJECT_NOT_FOUND: RecordedAnswer = {
  status: 404,
  body: {
    $id: '1',
    innerException: null,
    message:
      'TF200016: The following project does not exist: Web Apps. Verify that the name of the project is correct and that the project exists on the specified Azure DevOps Server.',
    typeName: 'Microsoft.TeamFoundation.Core.WebApi.ProjectDoesNotExistWithNameException, Microsoft.TeamFoundation.Core.WebApi',
    typeKey: 'ProjectDoesNotExistWithNameException',
    errorCode: 0,
    eventId: 3000,
  },
};

/** Azure DevOps' 401 for a personal access token it does not accept (an HTML page). */
export const AZURE_UNAUTHORIZED: RecordedAnswer = {
  status: 401,
  headers: { 'content-type': 'text/html; charset=utf-8', 'x-tfs-processid': '1b7c9e2a-0f3d-4c5b-8a6e-2d1f0c9b8a7e' },
  text: '<html><head><title>Access Denied</title></head><body>Access Denied: The Personal Access Token used has expired.</body></html>',
};
