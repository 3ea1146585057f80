import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { filterPullRequests, readPullRequestFilters } from '../../../src/generators/pull-request/filters.js';
import { createPullRequestGenerator, pullRequestEventKey, pullRequestParams, readPullRequestSpec } from '../../../src/generators/pull-request/generator.js';
import { RepositoryNotFoundError } from '../../../src/generators/pull-request/providers/errors.js';
import { PULL_REQUEST_PROVIDERS } from '../../../src/generators/pull-request/providers/index.js';
import { GeneratorSpecError, readObject, readString } from '../../../src/generators/spec-reading.js';
import { GitHubAppTokens } from '../../../src/scm/github-app.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { PullRequestProvider } from '../../../src/scm/provider.js';
import { createScmAccess } from '../../../src/scm/scm-access.js';
import { SharedAnswers } from '../../../src/scm/shared-answers.js';
import type { PullRequest } from '../../../src/scm/types.js';
import { platformScmPolicy } from '../../../src/tenancy/scm-policy.js';
import { json, startLocalApi, type LocalApi } from '../../scm/unit/local-api.js';
import { testContext } from '../test-context.js';
import { fakeScm, settle } from './fake-scm.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';

/** An open pull request with sensible defaults. */
function pull(overrides: Partial<PullRequest> = {}): PullRequest {
  return { number: 42, title: 'Add feature', branch: 'feature/ABC_def', targetBranch: 'main', headSha: SHA, labels: ['preview'], author: 'dev', ...overrides };
}

interface FakeSpec {
  readonly owner: string;
  readonly repo: string;
}

/** A `github`-named provider whose listing the test scripts, counting listings. */
function scriptedProvider(list: (spec: FakeSpec, signal: AbortSignal) => Promise<PullRequest[]>) {
  const state = { listings: 0 };
  const provider: PullRequestProvider<FakeSpec> = {
    name: 'github',
    readSpec(raw, field) {
      const body = readObject(raw, field);
      return { owner: readString(body['owner'], `${field}.owner`), repo: readString(body['repo'], `${field}.repo`) };
    },
    connection: () => ({ provider: 'github', apiBase: 'https://api.github.com', customApiUrl: '', auth: { kind: 'none' }, insecure: false }),
    repository: (spec) => spec,
    question: (spec) => JSON.stringify(spec),
    source: (_client, spec) => ({
      list: (signal) => {
        state.listings++;
        return list(spec, signal);
      },
    }),
  };
  return { provider: provider as PullRequestProvider, state };
}

const specError =
  (prefix: string) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof GeneratorSpecError, `expected a GeneratorSpecError, got ${String(error)}`);
    assert.ok(error.message.startsWith(prefix), `"${error.message}" should start with "${prefix}"`);
    return true;
  };

describe('pull request spec reading', () => {
  const github = { owner: 'o', repo: 'r' };
  const bad: [string, unknown, string][] = [
    ['a spec that is not an object', 'github', 'pullRequest: must be an object'],
    [
      'no provider',
      { filters: [] },
      'pullRequest: must name exactly one provider (github, gitlab, gitea, bitbucketServer, bitbucket, azuredevops), found none',
    ],
    [
      'two providers',
      { github, gitea: { owner: 'o', repo: 'r', api: 'https://g' } },
      'pullRequest: must name exactly one provider (github, gitlab, gitea, bitbucketServer, bitbucket, azuredevops), found github, gitea',
    ],
    ['an unknown field', { github, requeueAfter: 5 }, 'pullRequest.requeueAfter: unknown field'],
    ["a provider's missing field", { github: { repo: 'r' } }, 'pullRequest.github.owner: must be a non-empty string'],
    ["a provider's unknown field", { github: { ...github, organization: 'o' } }, 'pullRequest.github.organization: is not a field here'],
    ['filters that are not a list', { github, filters: { branchMatch: 'x' } }, 'pullRequest.filters: must be a list'],
    ['an unknown filter', { github, filters: [{ branchMatch: 'a' }, { nameMatch: 'x' }] }, 'pullRequest.filters[1].nameMatch: unknown filter'],
    [
      'a filter pattern that does not compile',
      { github, filters: [{ titleMatch: 'ok' }, { branchMatch: 'feature-(' }] },
      'pullRequest.filters[1].branchMatch: is not a valid regular expression',
    ],
    [
      'a filter pattern that is not a string',
      { github, filters: [{ targetBranchMatch: 5 }] },
      'pullRequest.filters[0].targetBranchMatch: must be a regular expression',
    ],
    ['negative requeueAfterSeconds', { github, requeueAfterSeconds: -1 }, 'pullRequest.requeueAfterSeconds: must be a non-negative whole number'],
    ['requeueAfterSeconds as text', { github, requeueAfterSeconds: '30' }, 'pullRequest.requeueAfterSeconds: must be a non-negative whole number'],
    ['a value that is not a string', { github, values: { env: 'x', replicas: 2 } }, 'pullRequest.values.replicas: must be a string'],
    ['continueOnRepoNotFoundError as text', { github, continueOnRepoNotFoundError: 'yes' }, 'pullRequest.continueOnRepoNotFoundError: must be true or false'],
    ['a gitea spec without api', { gitea: github }, 'pullRequest.gitea.api: '],
  ];
  for (const [name, raw, prefix] of bad) {
    it(`refuses ${name}, naming the field`, () => {
      assert.throws(() => readPullRequestSpec(raw, PULL_REQUEST_PROVIDERS), specError(prefix));
    });
  }

  it('reads the common fields and the provider', () => {
    const spec = readPullRequestSpec(
      { github, filters: [{ branchMatch: '^feat' }], values: { env: 'pr' }, requeueAfterSeconds: 0, continueOnRepoNotFoundError: true, template: {} },
      PULL_REQUEST_PROVIDERS,
    );
    assert.equal(spec.provider.name, 'github');
    assert.equal(spec.filters.length, 1);
    assert.deepEqual(spec.values, { env: 'pr' });
    assert.equal(spec.requeueAfterSeconds, 0);
    assert.equal(spec.continueOnRepoNotFoundError, true);
  });
});

describe('pull request filters (Argo CD semantics)', () => {
  const pulls = [
    pull({ number: 1, branch: 'feature/a', targetBranch: 'main', title: 'Feature A' }),
    pull({ number: 2, branch: 'feature/b', targetBranch: 'release', title: 'WIP: Feature B' }),
    pull({ number: 3, branch: 'fix/c', targetBranch: 'main', title: 'Fix C' }),
  ];
  const numbers = (filters: unknown): number[] => filterPullRequests(pulls, readPullRequestFilters(filters, 'f')).map((p) => p.number);

  it('keeps everything without filters', () => assert.deepEqual(numbers(undefined), [1, 2, 3]));
  it('needs every pattern of one filter to match', () => assert.deepEqual(numbers([{ branchMatch: '^feature/', targetBranchMatch: '^main$' }]), [1]));
  it('keeps a pull request that any one filter matches', () => assert.deepEqual(numbers([{ branchMatch: '^fix/' }, { targetBranchMatch: 'release' }]), [2, 3]));
  it('matches titles, unanchored, with Go flags', () => assert.deepEqual(numbers([{ titleMatch: '(?i)^wip:' }]), [2]));
  it('treats a filter with no pattern as matching everything', () => assert.deepEqual(numbers([{}, { branchMatch: 'nothing' }]), [1, 2, 3]));
  it('ignores a null pattern', () => assert.deepEqual(numbers([{ branchMatch: null, titleMatch: 'Fix' }]), [3]));
});

describe('pull request parameters', () => {
  it('names every parameter as Argo CD does, the number as text and the short SHAs 8 and 7 long', () => {
    assert.deepEqual(pullRequestParams(pull({ targetBranch: 'release/2.0', labels: ['preview', 'team-a'] })), {
      number: '42',
      title: 'Add feature',
      branch: 'feature/ABC_def',
      branch_slug: 'feature-abc-def',
      target_branch: 'release/2.0',
      target_branch_slug: 'release-2-0',
      head_sha: SHA,
      head_short_sha: '01234567',
      head_short_sha_7: '0123456',
      labels: ['preview', 'team-a'],
      author: 'dev',
    });
  });

  it('keeps a SHA shorter than 8 or 7 whole', () => {
    const short = pullRequestParams(pull({ headSha: 'abc12' }));
    assert.equal(short.head_short_sha, 'abc12');
    assert.equal(short.head_short_sha_7, 'abc12');
    const seven = pullRequestParams(pull({ headSha: 'abc1234' }));
    assert.equal(seven.head_short_sha, 'abc1234');
    assert.equal(seven.head_short_sha_7, 'abc1234');
    assert.equal(pullRequestParams(pull({ headSha: '' })).head_short_sha, '');
  });
});

describe('pull request generator', () => {
  const spec = (extra: Record<string, unknown> = {}) => ({ github: { owner: 'Platform', repo: 'MonoRepo' }, ...extra });

  it('lists through the access, filters, and adds interpolated values', async () => {
    const { provider } = scriptedProvider(() => Promise.resolve([pull(), pull({ number: 7, branch: 'wip/x', headSha: 'fedcba9876' })]));
    const scm = fakeScm();
    const out = await createPullRequestGenerator([provider]).generate(
      spec({ filters: [{ branchMatch: '^feature/' }], values: { env: 'pr-{{number}}', host: '{{branch_slug}}.preview', later: '{{unknown}}' } }),
      testContext({ scm }),
    );
    assert.equal(out.length, 1);
    assert.equal(out[0]?.['number'], '42');
    assert.deepEqual(out[0]?.['values'], { env: 'pr-42', host: 'feature-abc-def.preview', later: '{{unknown}}' });
    assert.equal(scm.connections.length, 1);
    assert.equal(scm.questions[0]?.eventKey, 'pr:github:platform/monorepo', 'the lower-case routing key of the repository');
  });

  it('gives no param sets for a repository with no open pull requests', async () => {
    const { provider } = scriptedProvider(() => Promise.resolve([]));
    assert.deepEqual(await createPullRequestGenerator([provider]).generate(spec(), testContext({ scm: fakeScm() })), []);
  });

  it('continues with no pull requests on RepositoryNotFoundError when continueOnRepoNotFoundError is set', async () => {
    const notFound = new RepositoryNotFoundError(new ScmApiError('GET api.github.com/repos/o/r/pulls answered 404: Not Found', 404, 'Not Found'));
    const { provider } = scriptedProvider(() => Promise.reject(notFound));
    const generator = createPullRequestGenerator([provider]);
    assert.deepEqual(await generator.generate(spec({ continueOnRepoNotFoundError: true }), testContext({ scm: fakeScm() })), []);
    await assert.rejects(generator.generate(spec(), testContext({ scm: fakeScm() })), RepositoryNotFoundError);
  });

  it('still fails on other API errors with continueOnRepoNotFoundError', async () => {
    const { provider } = scriptedProvider(() => Promise.reject(new ScmApiError('GET api.github.com/repos/o/r/pulls answered 500', 500)));
    await assert.rejects(
      createPullRequestGenerator([provider]).generate(spec({ continueOnRepoNotFoundError: true }), testContext({ scm: fakeScm() })),
      (error: unknown) => error instanceof ScmApiError && error.status === 500,
    );
  });

  it('passes on a refusal of the access', async () => {
    const { provider, state } = scriptedProvider(() => Promise.resolve([pull()]));
    await assert.rejects(createPullRequestGenerator([provider]).generate(spec(), testContext()), ScmRequestRefused);
    assert.equal(state.listings, 0);
  });

  it('requeues at the next poll slot: within 30 minutes by default, within requeueAfterSeconds when set', () => {
    const generator = createPullRequestGenerator(PULL_REQUEST_PROVIDERS);
    const byDefault = generator.requeueAfterMs?.({ github: { owner: 'o', repo: 'r' } }) ?? -1;
    assert.ok(byDefault >= 1000 && byDefault <= 30 * 60_000 + 1000, `${byDefault} ms`);
    const short = generator.requeueAfterMs?.({ github: { owner: 'o', repo: 'r' }, requeueAfterSeconds: 45 }) ?? -1;
    assert.ok(short >= 1000 && short <= 46_000, `${short} ms`);
    assert.equal(generator.requeueAfterMs?.({ github: { owner: 'o', repo: 'r' }, requeueAfterSeconds: 0 }), 0);
  });

  it('gives ApplicationSets watching the same repository the same poll instant', () => {
    const generator = createPullRequestGenerator(PULL_REQUEST_PROVIDERS);
    const at = (raw: unknown): number => Date.now() + (generator.requeueAfterMs?.(raw) ?? 0);
    const a = at({ github: { owner: 'o', repo: 'r' }, filters: [{ branchMatch: 'x' }] });
    const b = at({ github: { owner: 'o', repo: 'r' }, values: { v: '1' } });
    assert.ok(Math.abs(a - b) < 100, `${a - b} ms apart`);
  });

  it('shares one listing between ApplicationSets asking the same question with the same credentials', async () => {
    let release: (pulls: PullRequest[]) => void = () => undefined;
    const { provider, state } = scriptedProvider(() => new Promise((resolve) => (release = resolve)));
    const scm = fakeScm();
    const generator = createPullRequestGenerator([provider]);
    const first = generator.generate(spec({ values: { who: 'first' } }), testContext({ scm }));
    const second = generator.generate(spec({ filters: [{ titleMatch: 'nothing' }] }), testContext({ scm }));
    await settle();
    release([pull()]);
    assert.equal((await first).length, 1);
    assert.equal((await second).length, 0, 'filters apply per ApplicationSet to the shared listing');
    await generator.generate(spec(), testContext({ scm }));
    assert.equal(state.listings, 1, 'the finished answer is reused too');
  });

  it('lists again for other credentials, another repository, or after a webhook', async () => {
    const { provider, state } = scriptedProvider(() => Promise.resolve([pull()]));
    const scm = fakeScm();
    const generator = createPullRequestGenerator([provider]);
    await generator.generate(spec(), testContext({ scm }));
    scm.identity = 'creds-2';
    await generator.generate(spec(), testContext({ scm }));
    assert.equal(state.listings, 2, 'another credential identity');
    await generator.generate({ github: { owner: 'Platform', repo: 'other' } }, testContext({ scm }));
    assert.equal(state.listings, 3, 'another repository');
    scm.bump('pr:github:platform/monorepo');
    await generator.generate(spec(), testContext({ scm }));
    assert.equal(state.listings, 4, 'a webhook for the repository');
  });

  it('stops when the reconcile is cancelled while the listing runs', async () => {
    const { provider } = scriptedProvider(() => new Promise(() => undefined));
    const controller = new AbortController();
    const pending = createPullRequestGenerator([provider]).generate(spec(), testContext({ scm: fakeScm(), signal: controller.signal }));
    await settle();
    controller.abort(new Error('cancelled'));
    await assert.rejects(pending, /cancelled/);
  });
});

describe('pull request routing keys', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['GitHub, lower case', { github: { owner: 'Platform', repo: 'MonoRepo' } }, 'pr:github:platform/monorepo'],
    ['GitLab by path', { gitlab: { project: 'group/sub/app' } }, 'pr:gitlab:group/sub/app'],
    ['GitLab by numeric id', { gitlab: { project: '42' } }, 'pr:gitlab:/42'],
    ['Bitbucket Server', { bitbucketServer: { project: 'PLAT', repo: 'app', api: 'https://bb.example' } }, 'pr:bitbucket-server:plat/app'],
    ['Azure DevOps (project and repository)', { azuredevops: { organization: 'org', project: 'Proj', repo: 'app' } }, 'pr:azuredevops:proj/app'],
    ['an unreadable spec', { github: { owner: 'o' } }, undefined],
  ];
  for (const [name, raw, key] of cases) {
    it(`names ${name}`, () => assert.equal(pullRequestEventKey(raw, PULL_REQUEST_PROVIDERS), key));
  }
});

describe('pull request generator over a real access and a GitHub-like API', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((req, res) => {
      if (req.url.startsWith('/api/v3/repos/platform/missing/')) return json(res, 404, { message: 'Not Found' });
      json(res, 200, [
        {
          number: 5,
          title: 'Bump',
          head: { ref: 'renovate/lodash', sha: SHA },
          base: { ref: 'main' },
          labels: [{ name: 'deps' }],
          user: { login: 'renovate' },
        },
      ]);
    });
  });
  after(() => api.close());
  const secret: V1Secret = {
    metadata: { name: 'gh', namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'scm-creds' } },
    data: { token: Buffer.from('ghp_x').toString('base64') },
  };
  const access = () =>
    createScmAccess({
      policy: platformScmPolicy({ enabled: true, allowedApiUrls: [] }),
      secrets: () => [secret],
      namespace: 'argocd',
      configMapValue: () => Promise.resolve(undefined),
      answers: new SharedAnswers(() => Promise.resolve(0), { reuseMs: 1000 }),
      githubApps: new GitHubAppTokens(),
    });
  const spec = (repo: string, extra: Record<string, unknown> = {}) => ({
    github: { owner: 'platform', repo, api: api.origin, tokenRef: { secretName: 'gh', key: 'token' } },
    ...extra,
  });

  it('lists the pull requests with the token of the Secret', async () => {
    const out = await createPullRequestGenerator(PULL_REQUEST_PROVIDERS).generate(spec('app'), testContext({ scm: access() }));
    assert.deepEqual(out, [
      {
        number: '5',
        title: 'Bump',
        branch: 'renovate/lodash',
        branch_slug: 'renovate-lodash',
        target_branch: 'main',
        target_branch_slug: 'main',
        head_sha: SHA,
        head_short_sha: '01234567',
        head_short_sha_7: '0123456',
        labels: ['deps'],
        author: 'renovate',
      },
    ]);
    const seen = api.requests.at(-1);
    assert.equal(seen?.headers['authorization'], 'Bearer ghp_x');
    assert.match(seen?.url ?? '', /^\/api\/v3\/repos\/platform\/app\/pulls\?/);
  });

  it('turns a 404 of the repository into no pull requests with continueOnRepoNotFoundError, and an error without', async () => {
    const generator = createPullRequestGenerator(PULL_REQUEST_PROVIDERS);
    assert.deepEqual(await generator.generate(spec('missing', { continueOnRepoNotFoundError: true }), testContext({ scm: access() })), []);
    await assert.rejects(generator.generate(spec('missing'), testContext({ scm: access() })), (error: unknown) => {
      assert.ok(error instanceof RepositoryNotFoundError);
      assert.match(error.message, /answered 404: Not Found/);
      return true;
    });
  });
});
