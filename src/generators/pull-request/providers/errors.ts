import { ScmApiError } from '../../../scm/http/errors.js';

/**
 * The provider says the repository (or, on Azure DevOps, the project) does not exist, where Argo CD's
 * `IsRepositoryNotFoundError` is true: `continueOnRepoNotFoundError` turns it into an empty listing.
 */
export class RepositoryNotFoundError extends ScmApiError {
  override readonly name = 'RepositoryNotFoundError';
  constructor(cause: ScmApiError) {
    super(cause.message, cause.status, cause.providerMessage);
  }
}

/** Runs one whole listing; an API error that `isNotFound` recognises becomes a RepositoryNotFoundError. */
export async function listingOfRepository<T>(list: () => Promise<T>, isNotFound: (error: ScmApiError) => boolean): Promise<T> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof ScmApiError && !(error instanceof RepositoryNotFoundError) && isNotFound(error)) throw new RepositoryNotFoundError(error);
    throw error;
  }
}

/** Argo CD's test on most providers: the API answered 404 to any request of the listing. */
export const answeredNotFound = (error: ScmApiError): boolean => error.status === 404;
