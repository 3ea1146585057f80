// Runs one pull request provider the way the generator does: spec read, connection planned, a real API
// client built from the plan (with a fixed secret standing in for the Secret's value), listing taken.
import assert from 'node:assert/strict';
import type { PullRequestProvider } from '../../../src/scm/provider.js';
import type { ApiAuth } from '../../../src/scm/http/api-client.js';
import { createApiClient } from '../../../src/scm/http/api-client.js';
import { ScmApiError } from '../../../src/scm/http/errors.js';
import type { AuthPlan } from '../../../src/scm/provider.js';
import type { PullRequest } from '../../../src/scm/types.js';
import { RepositoryNotFoundError } from '../../../src/generators/pull-request/providers/errors.js';
import { GeneratorSpecError } from '../../../src/generators/spec-reading.js';

/** The field path specs are read under, as the generator passes it. */
export const FIELD = 'spec.generators[0].pullRequest';

/** What the wiring would send once the Secret named by `plan` holds `secret`. */
export function authFor(plan: AuthPlan, secret: string): ApiAuth {
  switch (plan.kind) {
    case 'none':
      return { kind: 'none' };
    case 'token':
      return plan.toAuth(secret);
    case 'basic':
      return { kind: 'basic', username: plan.username, password: secret };
    case 'githubApp':
      throw new Error('GitHub App tokens are exchanged by the wiring, not by these tests');
  }
}

/** Reads `raw` as `provider`'s spec and lists its pull requests through a real client of the planned connection. */
export function listPullRequests(provider: PullRequestProvider, raw: unknown, secret = 's3cr3t-t0ken'): Promise<PullRequest[]> {
  const spec = provider.readSpec(raw, `${FIELD}.${provider.name}`);
  const connection = provider.connection(spec);
  const client = createApiClient({ baseUrl: connection.apiBase, auth: authFor(connection.auth, secret), maxRetryWaitMs: 0 });
  return provider.source(client, spec).list(new AbortController().signal);
}

/** Asserts `listing` fails with a plain API error (not "repository not found") naming the host, path and status. */
export async function assertApiFailure(listing: Promise<unknown>, origin: string, path: string, status: number): Promise<void> {
  await assert.rejects(listing, (error: unknown) => {
    assert.ok(error instanceof ScmApiError, `expected a ScmApiError, got ${String(error)}`);
    assert.ok(!(error instanceof RepositoryNotFoundError), 'must not read as "repository not found"');
    assert.equal(error.status, status);
    assert.ok(error.message.includes(`${new URL(origin).host}${path}`), `message names host and path: ${error.message}`);
    assert.ok(error.message.includes(String(status)), `message names the status: ${error.message}`);
    return true;
  });
}

/** Asserts `listing` fails with RepositoryNotFoundError for a 404 of `path`. */
export async function assertRepositoryNotFound(listing: Promise<unknown>, path: string): Promise<void> {
  await assert.rejects(listing, (error: unknown) => {
    assert.ok(error instanceof RepositoryNotFoundError, `expected RepositoryNotFoundError, got ${String(error)}`);
    assert.ok(error instanceof ScmApiError);
    assert.ok(error.message.includes(path), error.message);
    return true;
  });
}

/** Asserts reading `raw` fails with a spec error whose message starts with `field`. */
export function assertSpecError(provider: PullRequestProvider, raw: unknown, field: string, problem: RegExp): void {
  assert.throws(
    () => provider.readSpec(raw, `${FIELD}.${provider.name}`),
    (error: Error) => error instanceof GeneratorSpecError && error.message.startsWith(`${FIELD}.${provider.name}${field}: `) && problem.test(error.message),
  );
}
