import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listFilteredRepositories, readRepositoryFilters } from '../../../src/generators/scm-provider/filters.js';
import { createScmProviderGenerator, readScmProviderSpec, repositoryParams, scmProviderEventKey } from '../../../src/generators/scm-provider/generator.js';
import { REPOSITORY_PROVIDERS } from '../../../src/generators/scm-provider/providers/index.js';
import { GeneratorSpecError, readObject, readString } from '../../../src/generators/spec-reading.js';
import type { RepositoryProvider } from '../../../src/scm/provider.js';
import type { RepositorySource, ScmRepository } from '../../../src/scm/types.js';
import { testContext } from '../test-context.js';
import { fakeScm, settle } from './fake-scm.js';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

/** A repository of the listing (no branch read yet). */
function repo(name: string, labels: string[] = [], id: string | number | undefined = name.length): ScmRepository {
  return { organization: 'platform', repository: name, url: `https://git.example/platform/${name}.git`, branch: 'main', sha: '', labels, repositoryId: id };
}

/** A scripted organisation: repositories, their branches, and which paths exist on which branch. */
function scriptedSource(
  repos: ScmRepository[],
  branches: Record<string, string[]>,
  paths: Record<string, string[]>,
): RepositorySource & { calls: { listRepos: string[]; getBranches: string[]; repoHasPath: string[] } } {
  const calls = { listRepos: [] as string[], getBranches: [] as string[], repoHasPath: [] as string[] };
  return {
    calls,
    listRepos(cloneProtocol) {
      calls.listRepos.push(cloneProtocol);
      return Promise.resolve(repos.map((r) => ({ ...r })));
    },
    getBranches(r) {
      calls.getBranches.push(r.repository);
      return Promise.resolve((branches[r.repository] ?? [r.branch]).map((branch, i) => ({ ...r, branch, sha: `${i}${SHA.slice(1)}` })));
    },
    repoHasPath(r, path) {
      calls.repoHasPath.push(`${r.repository}@${r.branch}:${path}`);
      return Promise.resolve((paths[`${r.repository}@${r.branch}`] ?? []).includes(path));
    },
  };
}

const organisation = () =>
  scriptedSource(
    [repo('alpha', ['team-a', 'go']), repo('beta', ['team-b']), repo('gamma')],
    { alpha: ['main', 'dev'], beta: ['main'], gamma: ['main', 'feature/x'] },
    { 'alpha@main': ['apps', 'apps/web'], 'beta@main': ['apps', 'legacy'], 'gamma@feature/x': ['apps'] },
  );
const signal = new AbortController().signal;
const names = (repos: ScmRepository[]): string[] => repos.map((r) => `${r.repository}@${r.branch}`);

async function run(filters: unknown, source = organisation()) {
  const kept = await listFilteredRepositories(source, readRepositoryFilters(filters, 'scmProvider.filters'), '', signal);
  return { kept: names(kept), calls: source.calls };
}

describe('scm provider filters: reading', () => {
  it('sets the stage as Argo CD does: a branch condition makes the whole filter branch-level', () => {
    const stages = readRepositoryFilters(
      [
        { repositoryMatch: 'a' },
        { labelMatch: 'b' },
        { pathsExist: [] },
        { pathsDoNotExist: ['x'] },
        { branchMatch: 'c' },
        { repositoryMatch: 'a', branchMatch: 'c' },
      ],
      'f',
    ).map((f) => f.stage);
    assert.deepEqual(stages, ['repository', 'repository', 'branch', 'branch', 'branch', 'branch']);
  });

  it('trims trailing slashes of paths', () => {
    const [filter] = readRepositoryFilters([{ pathsExist: ['apps/', 'charts//', 'plain'], pathsDoNotExist: ['legacy/'] }], 'f');
    assert.deepEqual(filter?.pathsExist, ['apps', 'charts', 'plain']);
    assert.deepEqual(filter?.pathsDoNotExist, ['legacy']);
  });

  const bad: [string, unknown, string][] = [
    ['an unknown filter', [{ repoMatch: 'x' }], 'scmProvider.filters[0].repoMatch: unknown filter'],
    [
      'a pattern that does not compile',
      [{ labelMatch: 'ok' }, { repositoryMatch: '(' }],
      'scmProvider.filters[1].repositoryMatch: is not a valid regular expression',
    ],
    ['a pattern that is not a string', [{ branchMatch: 3 }], 'scmProvider.filters[0].branchMatch: must be a string'],
    ['pathsExist that is not a list', [{ pathsExist: 'apps' }], 'scmProvider.filters[0].pathsExist: must be a list'],
    ['a path that is not a string', [{ pathsDoNotExist: ['a', 7] }], 'scmProvider.filters[0].pathsDoNotExist[1]: must be a non-empty string'],
  ];
  for (const [name, filters, prefix] of bad) {
    it(`refuses ${name}, naming its place`, () => {
      assert.throws(
        () => readRepositoryFilters(filters, 'scmProvider.filters'),
        (error: unknown) => error instanceof GeneratorSpecError && error.message.startsWith(prefix),
      );
    });
  }
});

describe('scm provider filters: the two stages of Argo CD', () => {
  it('keeps every branch of every repository without filters', async () => {
    const { kept, calls } = await run(undefined);
    assert.deepEqual(kept, ['alpha@main', 'alpha@dev', 'beta@main', 'gamma@main', 'gamma@feature/x']);
    assert.deepEqual(calls.getBranches, ['alpha', 'beta', 'gamma']);
    assert.deepEqual(calls.repoHasPath, []);
  });

  it('applies repository-level filters before reading branches: a dropped repository costs no branch listing', async () => {
    const { kept, calls } = await run([{ repositoryMatch: '^(alpha|beta)$' }]);
    assert.deepEqual(kept, ['alpha@main', 'alpha@dev', 'beta@main']);
    assert.deepEqual(calls.getBranches, ['alpha', 'beta']);
  });

  it('keeps a repository any repository-level filter matches; labelMatch needs one matching label', async () => {
    const { kept, calls } = await run([{ labelMatch: '^go$' }, { repositoryMatch: 'gam' }]);
    assert.deepEqual(kept, ['alpha@main', 'alpha@dev', 'gamma@main', 'gamma@feature/x']);
    assert.deepEqual(calls.getBranches, ['alpha', 'gamma']);
  });

  it('needs every condition of one repository-level filter', async () => {
    assert.deepEqual((await run([{ repositoryMatch: '^alpha$', labelMatch: '^team-b$' }])).kept, []);
  });

  it('applies branch-level filters to each branch after reading them', async () => {
    const { kept, calls } = await run([{ branchMatch: '^main$' }]);
    assert.deepEqual(kept, ['alpha@main', 'beta@main', 'gamma@main']);
    assert.deepEqual(calls.getBranches, ['alpha', 'beta', 'gamma']);
  });

  it('asks for pathsExist on each branch, with the trailing slash trimmed', async () => {
    const { kept, calls } = await run([{ pathsExist: ['apps/'] }]);
    assert.deepEqual(kept, ['alpha@main', 'beta@main', 'gamma@feature/x']);
    assert.ok(calls.repoHasPath.includes('alpha@dev:apps'));
    assert.ok(calls.repoHasPath.every((call) => call.endsWith(':apps')));
  });

  it('needs every path of pathsExist and none of pathsDoNotExist', async () => {
    assert.deepEqual((await run([{ pathsExist: ['apps', 'apps/web/'] }])).kept, ['alpha@main']);
    assert.deepEqual((await run([{ pathsExist: ['apps'], pathsDoNotExist: ['legacy'] }])).kept, ['alpha@main', 'gamma@feature/x']);
  });

  it('checks the repository conditions of a branch-level filter per branch, without a repository stage', async () => {
    const { kept, calls } = await run([{ repositoryMatch: '^gamma$', branchMatch: 'feature' }]);
    assert.deepEqual(kept, ['gamma@feature/x']);
    assert.deepEqual(calls.getBranches, ['alpha', 'beta', 'gamma'], 'no repository-level filter: every repository is read');
  });

  it('runs both stages when filters of both kinds are given', async () => {
    const { kept, calls } = await run([{ repositoryMatch: '^alpha$' }, { branchMatch: '^dev$' }]);
    assert.deepEqual(kept, ['alpha@dev']);
    assert.deepEqual(calls.getBranches, ['alpha']);
  });

  it('passes the clone protocol to the listing', async () => {
    const source = organisation();
    await listFilteredRepositories(source, [], 'ssh', signal);
    assert.deepEqual(source.calls.listRepos, ['ssh']);
  });

  it('ignores a filter that sets no condition, as Argo CD does (FilterTypeUndefined)', async () => {
    assert.deepEqual((await run([{}, { repositoryMatch: '^beta$' }])).kept, ['beta@main']);
  });

  it('accepts an empty pattern, which Go compiles and which matches everything', async () => {
    assert.deepEqual((await run([{ repositoryMatch: '' }])).kept.length, 5);
  });
});

interface FakeSpec {
  readonly organization: string;
}

/** A `github`-named repository provider over a scripted source, counting how often it is asked for one. */
function scriptedProvider(source: RepositorySource) {
  const provider: RepositoryProvider<FakeSpec> = {
    name: 'github',
    readSpec: (raw, field) => ({ organization: readString(readObject(raw, field)['organization'], `${field}.organization`) }),
    connection: () => ({ provider: 'github', apiBase: 'https://api.github.com', customApiUrl: '', auth: { kind: 'none' }, insecure: false }),
    organization: (spec) => spec.organization,
    question: (spec) => JSON.stringify(spec),
    source: () => source,
  };
  return provider as RepositoryProvider;
}

describe('scm provider spec reading', () => {
  const bad: [string, unknown, string][] = [
    ['AWS CodeCommit, by name', { awsCodeCommit: { region: 'eu-west-1' } }, 'scmProvider.awsCodeCommit: AWS CodeCommit is not supported'],
    [
      'a clone protocol other than ssh or https',
      { github: { organization: 'o' }, cloneProtocol: 'git' },
      'scmProvider.cloneProtocol: must be ssh or https, not "git"',
    ],
    ['a clone protocol in capitals', { github: { organization: 'o' }, cloneProtocol: 'HTTPS' }, 'scmProvider.cloneProtocol: must be ssh or https'],
    ['a clone protocol that is not text', { github: { organization: 'o' }, cloneProtocol: 1 }, 'scmProvider.cloneProtocol: must be a string'],
    ['no provider', { cloneProtocol: 'ssh' }, 'scmProvider: must name exactly one provider'],
    ['an unknown field', { github: { organization: 'o' }, continueOnRepoNotFoundError: true }, 'scmProvider.continueOnRepoNotFoundError: unknown field'],
    ["a provider's missing field", { gitlab: {} }, 'scmProvider.gitlab.group: must be a non-empty string'],
    [
      'a bad filter',
      { github: { organization: 'o' }, filters: [{ branchMatch: '[' }] },
      'scmProvider.filters[0].branchMatch: is not a valid regular expression',
    ],
  ];
  for (const [name, raw, prefix] of bad) {
    it(`refuses ${name}`, () => {
      assert.throws(
        () => readScmProviderSpec(raw, REPOSITORY_PROVIDERS),
        (error: unknown) => error instanceof GeneratorSpecError && error.message.startsWith(prefix),
      );
    });
  }

  it('accepts ssh, https and no clone protocol', () => {
    for (const cloneProtocol of ['ssh', 'https', undefined]) {
      assert.equal(readScmProviderSpec({ github: { organization: 'o' }, cloneProtocol }, REPOSITORY_PROVIDERS).cloneProtocol, cloneProtocol ?? '');
    }
  });

  const keys: [string, unknown, string | undefined][] = [
    ['a GitHub organisation, lower case', { github: { organization: 'Platform' } }, 'scm:github:platform'],
    ['a GitLab group with subgroups', { gitlab: { group: 'Group/Sub' } }, 'scm:gitlab:group/sub'],
    ['a Bitbucket Server project', { bitbucketServer: { project: 'PLAT', api: 'https://bb.example' } }, 'scm:bitbucket-server:plat'],
    ['an unreadable spec', { github: {} }, undefined],
    ['AWS CodeCommit', { awsCodeCommit: {} }, undefined],
  ];
  for (const [name, raw, key] of keys) {
    it(`routes webhooks for ${name}`, () => assert.equal(scmProviderEventKey(raw, REPOSITORY_PROVIDERS), key));
  }
});

describe('scm provider parameters', () => {
  it('names the parameters as Argo CD does, labels joined with commas', () => {
    assert.deepEqual(repositoryParams({ ...repo('app', ['team-a', 'go'], 1296269), branch: 'Feature/Foo_Bar', sha: SHA }), {
      organization: 'platform',
      repository: 'app',
      url: 'https://git.example/platform/app.git',
      branch: 'Feature/Foo_Bar',
      branchNormalized: 'feature-foo-bar',
      sha: SHA,
      short_sha: 'a1b2c3d4',
      short_sha_7: 'a1b2c3d',
      labels: 'team-a,go',
      repository_id: 1296269,
    });
  });

  it('keeps string ids, short SHAs whole, and no labels as an empty string', () => {
    const params = repositoryParams({ ...repo('app', [], '{b1f0-uuid}'), sha: 'abc' });
    assert.equal(params['repository_id'], '{b1f0-uuid}');
    assert.equal(params['short_sha'], 'abc');
    assert.equal(params['short_sha_7'], 'abc');
    assert.equal(params['labels'], '');
  });

  it('leaves repository_id out when the provider has none', () => {
    assert.equal('repository_id' in repositoryParams({ ...repo('app'), repositoryId: undefined }), false);
  });
});

describe('scm provider generator', () => {
  it('lists, filters and yields param sets with interpolated values', async () => {
    const source = organisation();
    const scm = fakeScm();
    const out = await createScmProviderGenerator([scriptedProvider(source)]).generate(
      {
        github: { organization: 'Platform' },
        cloneProtocol: 'https',
        filters: [{ pathsExist: ['apps'] }],
        values: { name: '{{repository}}-{{branchNormalized}}' },
      },
      testContext({ scm }),
    );
    assert.deepEqual(
      out.map((p) => p['values']),
      [{ name: 'alpha-main' }, { name: 'beta-main' }, { name: 'gamma-feature-x' }],
    );
    assert.deepEqual(source.calls.listRepos, ['https']);
    assert.ok(scm.questions.every((q) => q.eventKey === 'scm:github:platform'));
  });

  it('shares every provider call between ApplicationSets asking the same question', async () => {
    const source = organisation();
    const scm = fakeScm();
    const generator = createScmProviderGenerator([scriptedProvider(source)]);
    const spec = { github: { organization: 'platform' }, filters: [{ pathsExist: ['apps'] }] };
    const [a, b] = await Promise.all([generator.generate(spec, testContext({ scm })), generator.generate(spec, testContext({ scm }))]);
    await generator.generate(spec, testContext({ scm }));
    assert.deepEqual(a, b);
    assert.equal(source.calls.listRepos.length, 1);
    assert.deepEqual(source.calls.getBranches, ['alpha', 'beta', 'gamma']);
    assert.equal(source.calls.repoHasPath.length, 5, 'one question per branch and path');
  });

  it('asks again after a webhook for the organisation', async () => {
    const source = organisation();
    const scm = fakeScm();
    const generator = createScmProviderGenerator([scriptedProvider(source)]);
    await generator.generate({ github: { organization: 'Platform' } }, testContext({ scm }));
    scm.bump('scm:github:platform');
    await generator.generate({ github: { organization: 'Platform' } }, testContext({ scm }));
    assert.equal(source.calls.listRepos.length, 2);
  });

  it('remembers whether a path exists at a known commit, even across webhooks, where the provider asks at the commit', async () => {
    const source = { ...organisation(), pathsAtCommit: true };
    const scm = fakeScm();
    const generator = createScmProviderGenerator([scriptedProvider(source)]);
    const spec = { github: { organization: 'platform' }, filters: [{ pathsExist: ['apps'] }] };
    const first = await generator.generate(spec, testContext({ scm }));
    scm.bump('scm:github:platform');
    const second = await generator.generate(spec, testContext({ scm }));
    assert.deepEqual(second, first);
    assert.equal(source.calls.listRepos.length, 2, 'the listing is asked again after the webhook');
    assert.equal(source.calls.getBranches.length, 6, 'so are the branches');
    assert.equal(source.calls.repoHasPath.length, 5, 'the same paths at the same commits are not');
    assert.equal(scm.remembered.length, 10);
  });

  it('shares, but does not remember, the path answers of a provider that asks at the branch (a later commit may answer)', async () => {
    const source = organisation();
    const scm = fakeScm();
    const generator = createScmProviderGenerator([scriptedProvider(source)]);
    const spec = { github: { organization: 'platform' }, filters: [{ pathsExist: ['apps'] }] };
    await generator.generate(spec, testContext({ scm }));
    scm.bump('scm:github:platform');
    await generator.generate(spec, testContext({ scm }));
    assert.equal(source.calls.repoHasPath.length, 10, 'asked again after the webhook');
    assert.deepEqual(scm.remembered, []);
  });

  it('shares, but does not remember, path answers of a branch whose commit is unknown', async () => {
    const source = organisation();
    const withCommits = source.getBranches.bind(source);
    source.getBranches = async (r, s) => (await withCommits(r, s)).map((b) => ({ ...b, sha: '' }));
    const scm = fakeScm();
    const generator = createScmProviderGenerator([scriptedProvider(source)]);
    const spec = { github: { organization: 'platform' }, filters: [{ pathsExist: ['apps'] }] };
    await generator.generate(spec, testContext({ scm }));
    await generator.generate(spec, testContext({ scm }));
    assert.equal(source.calls.repoHasPath.length, 5, 'shared within reuse');
    scm.bump('scm:github:platform');
    await generator.generate(spec, testContext({ scm }));
    assert.equal(source.calls.repoHasPath.length, 10, 'asked again after the webhook');
    assert.deepEqual(scm.remembered, []);
  });

  it('does not remember a path answer read from a later commit than the one it is filed under', async () => {
    // The branch head moves between reading the branch and asking for the path (a push lands meanwhile),
    // then is reset: the answer read at the later commit must not stick to the earlier one.
    const contents: Record<string, boolean> = { A: false, B: true };
    let head = 'A';
    const source: RepositorySource = {
      listRepos: () => Promise.resolve([repo('app')]),
      getBranches: (r) => Promise.resolve([{ ...r, branch: 'main', sha: head }]),
      repoHasPath: () => Promise.resolve(contents[head] ?? false),
    };
    const moving: RepositorySource = {
      ...source,
      getBranches: async (r, s) => {
        const read = await source.getBranches(r, s);
        head = 'B';
        return read;
      },
    };
    const scm = fakeScm();
    const spec = { github: { organization: 'platform' }, filters: [{ pathsExist: ['apps'] }] };
    await createScmProviderGenerator([scriptedProvider(moving)]).generate(spec, testContext({ scm }));
    head = 'A';
    scm.bump('scm:github:platform');
    const out = await createScmProviderGenerator([scriptedProvider(source)]).generate(spec, testContext({ scm }));
    assert.deepEqual(out, [], 'commit A has no apps/, whatever was read while the branch pointed at B');
  });

  it('refuses AWS CodeCommit when generating, naming it', async () => {
    await assert.rejects(
      createScmProviderGenerator(REPOSITORY_PROVIDERS).generate({ awsCodeCommit: {} }, testContext()),
      /scmProvider\.awsCodeCommit: AWS CodeCommit/,
    );
  });

  it('requeues at the next poll slot: within 30 minutes by default, within requeueAfterSeconds when set, never 0 unless asked', () => {
    const generator = createScmProviderGenerator(REPOSITORY_PROVIDERS);
    const byDefault = generator.requeueAfterMs?.({ github: { organization: 'o' } }) ?? -1;
    assert.ok(byDefault >= 1000 && byDefault <= 30 * 60_000 + 1000, `${byDefault} ms`);
    const short = generator.requeueAfterMs?.({ github: { organization: 'o' }, requeueAfterSeconds: 120 }) ?? -1;
    assert.ok(short >= 1000 && short <= 121_000, `${short} ms`);
    assert.equal(generator.requeueAfterMs?.({ github: { organization: 'o' }, requeueAfterSeconds: 0 }), 0);
  });

  it('gives ApplicationSets listing the same organisation the same poll instant, whatever else they set', () => {
    const generator = createScmProviderGenerator(REPOSITORY_PROVIDERS);
    const at = (raw: unknown): number => Date.now() + (generator.requeueAfterMs?.(raw) ?? 0);
    const a = at({ github: { organization: 'o' }, filters: [{ repositoryMatch: 'x' }] });
    const b = at({ github: { organization: 'o' }, values: { v: '1' }, cloneProtocol: 'ssh' });
    assert.ok(Math.abs(a - b) < 100, `${a - b} ms apart`);
  });

  it('stops when the reconcile is cancelled while the listing runs', async () => {
    const source = organisation();
    source.listRepos = () => new Promise(() => undefined);
    const controller = new AbortController();
    const pending = createScmProviderGenerator([scriptedProvider(source)]).generate(
      { github: { organization: 'o' } },
      testContext({ scm: fakeScm(), signal: controller.signal }),
    );
    await settle();
    controller.abort(new Error('cancelled'));
    await assert.rejects(pending, /cancelled/);
  });
});
