import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { lookup } from 'node:dns/promises';
import type { RunningController } from '../../src/app/start-replica.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { AttackCluster, IN_CLUSTER, tenantSpec, type AttackCase } from './attack-harness.js';

// The attack suite, part 1: hostile tenant ApplicationSets against one strict controller (no local
// repositories allowed, quotas 5 per ApplicationSet and 6 per namespace, a webhook secret), driven
// through the real API server. Every case asserts the condition and a Warning Event name the rule and
// that no Application of it was written. Part 2 (attacks-git.int.test.ts) reads real Git.

const PER_APPSET = 5;
const PER_NAMESPACE = 6;
const gitDirs = (repoURL: string, revision = 'HEAD', path = 'apps/*') => [{ git: { repoURL, revision, directories: [{ path }] } }];
const elements = (n: number) => [{ list: { elements: Array.from({ length: n }, (_, i) => ({ env: `e${i}` })) } }];

describe('attack suite: a hostile tenant cannot escape its AppProject (strict controller)', () => {
  const cluster = new AttackCluster(adminKubeConfig());
  let platform = '';
  let tenant = '';
  let quotaTenant = '';
  let unlisted = '';
  let controller: RunningController;
  const cases: AttackCase[] = [];
  const attack = (title: string, name: string, spec: Record<string, unknown>, rule: RegExp, namespace?: () => string): void => {
    const entry = {
      title,
      name,
      spec,
      rule,
      get namespace() {
        return namespace ? namespace() : tenant;
      },
    };
    cases.push(entry);
    it(title, async () => {
      await cluster.assertRefused(entry, 90_000);
    });
  };

  before(async () => {
    platform = await cluster.namespace('atk-platform');
    tenant = await cluster.namespace('atk-tenant');
    quotaTenant = await cluster.namespace('atk-quota');
    unlisted = await cluster.namespace('atk-unlisted');
    const inCluster = { server: IN_CLUSTER, namespace: 'team-*' };
    await cluster.project(platform, 'team', {
      sourceNamespaces: [tenant, quotaTenant],
      sourceRepos: ['https://git.example/team/*'],
      destinations: [inCluster, { name: 'in-cluster', namespace: 'team-*' }],
    });
    await cluster.project(platform, 'neg', {
      sourceNamespaces: [tenant],
      sourceRepos: ['!https://git.example/team/secret-*', 'https://git.example/team/*'],
      destinations: [inCluster, { server: IN_CLUSTER, namespace: '!team-admin' }],
    });
    await cluster.project(platform, 'open', { sourceNamespaces: [tenant], sourceRepos: ['*'], destinations: [inCluster] });
    await cluster.project(platform, 'platform-only', { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }] });
    await cluster.core.createNamespacedSecret({
      namespace: platform,
      body: { metadata: { name: 'webhook' }, stringData: { 'webhook.github.secret': 'the-real-secret' } },
    });
    controller = await cluster.controller({
      namespace: platform,
      'applicationset-namespaces': [tenant, quotaTenant, unlisted],
      'max-applications-per-applicationset': String(PER_APPSET),
      'max-applications-per-namespace': String(PER_NAMESPACE),
      'webhook-secret': 'webhook',
    });
    // Positive controls first: they must be written, so the refusals below are the rules at work.
    await cluster.applicationSet(tenant, 'allowed', tenantSpec('allowed'));
    await cluster.applicationSet(tenant, 'owner', tenantSpec('owner', { metadata: {} }));
    await cluster.applicationSet(quotaTenant, 'first', tenantSpec('first', { generators: elements(4) }));
    await cluster.create(tenant, 'applications', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'handmade-dev' },
      spec: { project: 'team', source: { repoURL: 'https://git.example/team/x', path: '.' }, destination: { server: IN_CLUSTER, namespace: 'team-dev' } },
    });
    await cluster.assertApplications(tenant, ['allowed-dev', 'owner-dev']);
    await cluster.assertApplications(quotaTenant, ['first-e0', 'first-e1', 'first-e2', 'first-e3']);
    for (const c of cases) await cluster.applicationSet(c.namespace, c.name, c.spec);
  });
  after(() => cluster.cleanUp());

  // Admission: the project is the tenant's, literal, and lists the namespace.
  attack('templated project (fasttemplate)', 'tpl-project', tenantSpec('tpl-project', { project: '{{env}}' }), /must be a literal AppProject name/);
  attack(
    'templated project (goTemplate)',
    'tpl-project-go',
    tenantSpec('tpl-project-go', { project: '{{ .env }}', goTemplate: true }),
    /must be a literal AppProject name/,
  );
  attack(
    'project switched by templatePatch',
    'patched-project',
    tenantSpec('patched-project', { templatePatch: 'spec:\n  project: platform-only\n' }),
    /templatePatch cannot change spec\.project/,
  );
  attack(
    'project switched by a generator template',
    'gen-project',
    tenantSpec('gen-project', { generators: [{ list: { elements: [{ env: 'dev' }], template: { metadata: {}, spec: { project: 'platform-only' } } } }] }),
    /spec\.project is "platform-only", but this ApplicationSet may only use AppProject team/,
  );
  attack('no project at all', 'no-project', tenantSpec('no-project', { project: '' }), /must name an AppProject/);
  attack('project that does not exist', 'ghost-project', tenantSpec('ghost-project', { project: 'ghost' }), /AppProject ghost does not exist/);
  attack(
    "project that does not list the tenant's namespace",
    'foreign-project',
    tenantSpec('foreign-project', { project: 'platform-only' }),
    /AppProject platform-only does not list namespace .* in spec\.sourceNamespaces/,
  );
  attack('namespace listed by no project', 'unlisted-ns', tenantSpec('unlisted-ns'), /AppProject team does not list namespace atk-unlisted-/, () => unlisted);

  // Sources: sourceRepos with globs and negation.
  attack(
    'source repository outside sourceRepos',
    'repo-outside',
    tenantSpec('repo-outside', { repoURL: 'https://git.example/platform/secrets.git' }),
    /source repository https:\/\/git\.example\/platform\/secrets\.git is not in the sourceRepos of AppProject team/,
  );
  attack(
    'source repository denied by a negated entry',
    'repo-negated',
    tenantSpec('repo-negated', { project: 'neg', repoURL: 'https://git.example/team/secret-keys.git' }),
    /secret-keys\.git is not in the sourceRepos of AppProject neg/,
  );
  attack(
    'source repository one folder deeper than the glob allows',
    'repo-deeper',
    tenantSpec('repo-deeper', { repoURL: 'https://git.example/team/sub/repo.git' }),
    /team\/sub\/repo\.git is not in the sourceRepos/,
  );
  attack(
    'a second source outside sourceRepos',
    'repo-sources',
    tenantSpec('repo-sources', { extra: { sources: [{ repoURL: 'https://git.example/team/ok.git' }, { repoURL: 'https://evil.example/x.git' }] } }),
    /evil\.example\/x\.git is not in the sourceRepos/,
  );
  attack(
    'source repository injected through a parameter',
    'repo-param',
    tenantSpec('repo-param', { repoURL: '{{repo}}', generators: [{ list: { elements: [{ env: 'dev', repo: 'https://evil.example/payload.git' }] } }] }),
    /evil\.example\/payload\.git is not in the sourceRepos/,
  );

  // Destinations: server or name, and namespace, with globs and negation.
  attack(
    'destination namespace outside the project',
    'dest-ns',
    tenantSpec('dest-ns', { destination: { server: IN_CLUSTER, namespace: 'kube-system' } }),
    /namespace kube-system is not in the destinations of AppProject team/,
  );
  attack(
    'destination namespace denied by a negated entry',
    'dest-negated',
    tenantSpec('dest-negated', { project: 'neg', destination: { server: IN_CLUSTER, namespace: 'team-admin' } }),
    /namespace team-admin is not in the destinations of AppProject neg/,
  );
  attack(
    'destination server outside the project',
    'dest-server',
    tenantSpec('dest-server', { destination: { server: 'https://prod.example:6443', namespace: 'team-dev' } }),
    /destination https:\/\/prod\.example:6443 namespace team-dev is not in the destinations/,
  );
  attack(
    'destination cluster name outside the project',
    'dest-name',
    tenantSpec('dest-name', { destination: { name: 'production', namespace: 'team-dev' } }),
    /destination production namespace team-dev is not in the destinations/,
  );

  // Name collisions: never take over another ApplicationSet's or a hand-made Application.
  attack(
    'Application name owned by another ApplicationSet',
    'collide-owned',
    tenantSpec('collide-owned', { metadata: { name: 'owner-dev' } }),
    /Application owner-dev already exists and is controlled by/,
  );
  attack(
    'Application name of a hand-made Application',
    'collide-handmade',
    tenantSpec('collide-handmade', { metadata: { name: 'handmade-dev' } }),
    /Application handmade-dev already exists/,
  );

  // Repositories the generators read: the controller's disk and network are off limits.
  attack(
    'git generator on file://',
    'git-file',
    tenantSpec('git-file', { project: 'open', generators: gitDirs('file:///var/lib/appset') }),
    /file:\/\/ and local paths are not allowed/,
  );
  attack(
    'git generator on a local path',
    'git-path',
    tenantSpec('git-path', { project: 'open', generators: gitDirs('/etc') }),
    /file:\/\/ and local paths are not allowed|refused repository URL/,
  );
  attack(
    'git generator on 127.0.0.1',
    'git-loopback',
    tenantSpec('git-loopback', { project: 'open', generators: gitDirs('http://127.0.0.1:6443/x.git') }),
    /address 127\.0\.0\.1 is the controller itself \(loopback\)/,
  );
  attack(
    'git generator on [::1]',
    'git-loopback6',
    tenantSpec('git-loopback6', { project: 'open', generators: gitDirs('http://[::1]:6443/x.git') }),
    /address ::1 is the controller itself \(loopback\)/,
  );
  attack(
    'git generator on localhost',
    'git-localhost',
    tenantSpec('git-localhost', { project: 'open', generators: gitDirs('http://localhost:6443/x.git') }),
    /host localhost is the controller itself/,
  );
  attack(
    'git generator on the cloud metadata address',
    'git-metadata',
    tenantSpec('git-metadata', { project: 'open', generators: gitDirs('http://169.254.169.254/latest.git') }),
    /link-local \(cloud metadata lives there\)/,
  );
  attack(
    'git generator on an scp-style loopback address',
    'git-scp',
    tenantSpec('git-scp', { project: 'open', generators: gitDirs('git@127.0.0.1:org/repo.git') }),
    /loopback/,
  );
  attack(
    'git generator on a host name that resolves to loopback',
    'git-dns',
    tenantSpec('git-dns', { project: 'open', generators: gitDirs(`http://${hostname()}:6443/x.git`) }),
    /refused repository host .*: address 127\.\d+\.\d+\.\d+ is the controller itself \(loopback\)/,
  );
  attack(
    'git remote helper (ext::)',
    'git-ext',
    tenantSpec('git-ext', { project: 'open', generators: gitDirs('ext::sh%20-c%20touch%20/tmp/pwned') }),
    /transport "ext:" is not allowed|remote-helper URLs \(such as ext::\) are not allowed/,
  );
  attack(
    'option injection in the repository URL',
    'git-opt-url',
    tenantSpec('git-opt-url', { project: 'open', generators: gitDirs('--upload-pack=touch%20/tmp/pwned') }),
    /starts with "-" \(option injection\)|must not be empty or start with "-"/,
  );
  attack(
    'option injection in the revision',
    'git-opt-rev',
    tenantSpec('git-opt-rev', { project: 'open', generators: gitDirs('https://git.example/team/apps.git', '--output=/tmp/pwned') }),
    /refused revision: it starts with "-" \(option injection\)/,
  );
  attack(
    'repository outside sourceRepos read by a generator',
    'git-outside',
    tenantSpec('git-outside', { generators: gitDirs('https://git.example/platform/secrets.git') }),
    /repository https:\/\/git\.example\/platform\/secrets\.git is not in the sourceRepos of AppProject team/,
  );

  // Quotas: refused whole, nothing written.
  attack(
    'more Applications than the per-ApplicationSet quota',
    'quota-appset',
    tenantSpec('quota-appset', { generators: elements(PER_APPSET + 1) }),
    /6 Applications, over the limit of 5 per ApplicationSet/,
  );
  attack(
    'more Applications than the per-namespace quota',
    'quota-ns',
    tenantSpec('quota-ns', { generators: elements(3) }),
    /namespace atk-quota-\w+ would hold 7 Applications \(4 not owned by this ApplicationSet\), over the limit of 6 per namespace/,
    () => quotaTenant,
  );

  // Template abuse.
  attack(
    'prototype access (fasttemplate)',
    'tpl-proto',
    tenantSpec('tpl-proto', { metadata: { annotations: { x: '{{constructor.constructor}}' } } }),
    /'constructor' is not allowed/,
  );
  attack(
    'prototype access (goTemplate)',
    'tpl-proto-go',
    tenantSpec('tpl-proto-go', { goTemplate: true, metadata: { annotations: { x: '{{ .__proto__ }}' } } }),
    /'__proto__' is not allowed/,
  );
  attack(
    'a template with more than 1000 actions',
    'tpl-actions',
    tenantSpec('tpl-actions', { metadata: { annotations: { x: '{{env}}'.repeat(1001) } } }),
    /at most 1000 are supported/,
  );
  const hundred = Array.from({ length: 300 }, (_, i) => i);
  attack(
    'huge template output',
    'tpl-huge',
    tenantSpec('tpl-huge', {
      goTemplate: true,
      generators: [{ list: { elements: [{ env: 'dev', l: hundred }] } }],
      metadata: { annotations: { x: `{{ range .l }}{{ range $.l }}{{ range $.l }}${'x'.repeat(1000)}{{ end }}{{ end }}{{ end }}` } },
    }),
    /rendered output exceeds the limit/,
  );
  attack(
    'slow template',
    'tpl-slow',
    tenantSpec('tpl-slow', {
      goTemplate: true,
      generators: [{ list: { elements: [{ env: 'dev', l: hundred }] } }],
      metadata: { annotations: { x: '{{ range .l }}{{ range $.l }}{{ range $.l }}{{ range $.l }}{{ end }}{{ end }}{{ end }}{{ end }}' } },
    }),
    /took longer than the limit/,
  );

  it('the host name used by the DNS case resolves to loopback here (precondition)', async () => {
    const addresses = await lookup(hostname(), { all: true });
    assert.ok(
      addresses.some((a) => a.address.startsWith('127.') || a.address === '::1'),
      `${hostname()} resolves to ${JSON.stringify(addresses)}`,
    );
  });

  it('the positive controls were written and kept', async () => {
    const names = (await cluster.applications(tenant)).map((a) => a.name).sort();
    assert.deepEqual(names, ['allowed-dev', 'handmade-dev', 'owner-dev']);
    assert.equal((await cluster.applications(quotaTenant)).length, 4);
  });

  it('a webhook without a valid signature is refused and routes nothing', async () => {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      repository: { html_url: 'https://git.example/team/apps', clone_url: 'https://git.example/team/apps.git' },
    });
    const metric = async (name: string): Promise<string> => await controller.metricsRegistry.getSingleMetricAsString(name);
    const pushesBefore = await metric('appset_webhook_enqueued_applicationsets');
    for (const signature of [undefined, 'sha256=' + '0'.repeat(64)]) {
      const response = await fetch(`http://127.0.0.1:${controller.port}/api/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body,
      });
      assert.equal(response.status, 401);
      assert.match(await response.text(), /github webhook signature is missing or wrong/);
    }
    assert.equal(await metric('appset_webhook_enqueued_applicationsets'), pushesBefore, 'no push was routed');
    assert.match(await metric('appset_webhook_requests_total'), /result="unauthorized"\} 2/);
  });
});
