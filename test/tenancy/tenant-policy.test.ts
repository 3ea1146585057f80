import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GitReader } from '../../src/git/git-reader.js';
import { isClusterPermitted, type AppProjectSpec } from '../../src/tenancy/project.js';
import { admitTenant, checkTenantApplications, tenantGitReader, TenancyViolation } from '../../src/tenancy/tenant-policy.js';

const project: AppProjectSpec = {
  sourceNamespaces: ['team-a'],
  sourceRepos: ['https://git.example/team-a/*'],
  destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'team-a-*' }],
};
const projects = (name: string): AppProjectSpec | undefined => (name === 'team-a' ? project : undefined);
const tenant = admitTenant('team-a', 'team-a', 'argocd', projects);
const app = (spec: Record<string, unknown>) => ({
  metadata: { name: 'x' },
  spec: {
    project: 'team-a',
    source: { repoURL: 'https://git.example/team-a/apps.git' },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'team-a-dev' },
    ...spec,
  },
});
const violation = (pattern: RegExp) => (error: unknown) => error instanceof TenancyViolation && pattern.test(error.message);

describe('tenant admission', () => {
  it('admits a literal project that lists the namespace', () => assert.equal(tenant.projectName, 'team-a'));
  const refusals: Array<[string, () => unknown, RegExp]> = [
    ['a templated project', () => admitTenant('team-a', '{{project}}', 'argocd', projects), /must be a literal AppProject name/],
    ['a goTemplate project', () => admitTenant('team-a', '{{ .project }}', 'argocd', projects), /must be a literal/],
    ['no project', () => admitTenant('team-a', undefined, 'argocd', projects), /must name an AppProject/],
    ['an unknown project', () => admitTenant('team-a', 'default', 'argocd', projects), /AppProject default does not exist in namespace argocd/],
    ['a project without the namespace', () => admitTenant('team-b', 'team-a', 'argocd', projects), /does not list namespace team-b in spec.sourceNamespaces/],
  ];
  for (const [what, attempt, message] of refusals) it(`refuses ${what}`, () => assert.throws(attempt, violation(message)));
});

describe('tenant Applications', () => {
  it('allows what the project allows', () => assert.doesNotThrow(() => checkTenantApplications(tenant, [app({})])));
  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['another project set by a generator template or patch', { project: 'default' }, /may only use AppProject team-a/],
    ['a repository outside sourceRepos', { source: { repoURL: 'https://git.example/team-b/apps.git' } }, /not in the sourceRepos/],
    [
      'a second source outside sourceRepos',
      { sources: [{ repoURL: 'https://git.example/team-a/ok' }, { repoURL: 'https://evil.example/x' }] },
      /evil\.example.*not in the sourceRepos/,
    ],
    [
      'a destination namespace outside',
      { destination: { server: 'https://kubernetes.default.svc', namespace: 'kube-system' } },
      /namespace kube-system is not in the destinations/,
    ],
    ['a destination cluster outside', { destination: { server: 'https://prod.example', namespace: 'team-a-dev' } }, /destination https:\/\/prod\.example/],
    ['no destination', { destination: {} }, /destination \(none\)/],
  ];
  for (const [what, spec, message] of refusals)
    it(`refuses ${what}`, () => assert.throws(() => checkTenantApplications(tenant, [app(spec)]), violation(message)));
});

describe('tenant Git access', () => {
  const calls: string[] = [];
  const reader: GitReader = {
    resolveRevision: (url) => (calls.push(url), Promise.resolve('abc')),
    listDirectories: () => Promise.resolve([]),
    listFiles: () => Promise.resolve([]),
    readFile: () => Promise.resolve(Buffer.from('')),
  };
  const guarded = tenantGitReader(reader, tenant);
  const signal = new AbortController().signal;

  it('reads the repositories of its project', async () => {
    assert.equal(await guarded.resolveRevision('https://git.example/team-a/apps.git', 'HEAD', signal), 'abc');
  });

  for (const url of [
    'https://git.example/team-b/apps.git',
    'file:///var/lib/appset/cache/team-b.git',
    'https://127.0.0.1/team-a/x',
    'http://169.254.169.254/team-a/x',
    '--upload-pack=id',
  ]) {
    it(`refuses ${url} before any Git call`, () => {
      const before = calls.length;
      assert.throws(() => guarded.resolveRevision(url, 'HEAD', signal), TenancyViolation);
      assert.equal(calls.length, before);
    });
  }
});

describe('tenant clusters', () => {
  it('sees only clusters its destinations name', () => {
    assert.ok(isClusterPermitted(project, { server: 'https://kubernetes.default.svc', name: 'in-cluster' }));
    assert.ok(!isClusterPermitted(project, { server: 'https://prod.example', name: 'prod' }));
    assert.ok(
      !isClusterPermitted(
        {
          destinations: [
            { server: '*', namespace: '*' },
            { server: '!https://prod.example', namespace: '*' },
          ],
        },
        { server: 'https://prod.example' },
      ),
    );
  });
});
