import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { controllerVerdicts, runDiff, tempFile, twoCommitRepo, type Settings } from './diff-harness.js';

/** An ApplicationSet with a list generator, as JSON (a YAML document). */
function appset(options: {
  name?: string;
  namespace?: string;
  elements: Array<Record<string, unknown>>;
  project?: string;
  name_template?: string;
  repoURL?: string;
  destination?: Record<string, string>;
  generators?: unknown[];
  extra?: Record<string, unknown>;
  annotations?: Record<string, string>;
}): string {
  const namespace = options.namespace ?? 'argocd';
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: options.name ?? 'guestbook', namespace, ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      generators: options.generators ?? [{ list: { elements: options.elements } }],
      template: {
        metadata: { name: options.name_template ?? `${options.name ?? 'guestbook'}-{{env}}` },
        spec: {
          project: options.project ?? (namespace === 'argocd' ? 'default' : namespace),
          source: { repoURL: options.repoURL ?? 'https://git.example/apps.git', path: 'guestbook', targetRevision: 'HEAD' },
          destination: options.destination ?? {
            server: 'https://kubernetes.default.svc',
            namespace: namespace === 'argocd' ? 'guestbook-{{env}}' : `${namespace}-{{env}}`,
          },
        },
      },
      ...options.extra,
    },
  });
}

const PROJECTS = [
  { name: 'team-a', sourceNamespaces: ['team-a'] },
  { name: 'team-b', sourceNamespaces: ['team-b'] },
]
  .map(({ name, sourceNamespaces }) =>
    JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name, namespace: 'argocd' },
      spec: {
        sourceNamespaces,
        sourceRepos: ['https://git.example/apps.git'],
        destinations: [{ server: 'https://kubernetes.default.svc', namespace: `${name}-*` }],
      },
    }),
  )
  .join('\n---\n');

const envs = (...names: string[]): Array<Record<string, unknown>> => names.map((env) => ({ env }));
const docs = (...items: string[]): string => items.join('\n---\n');
const ok = appset({ elements: envs('dev') });

/** Every refusal the controller can make from an ApplicationSet and the Applications it finds, with the head ApplicationSet refused. */
const CASES: Array<{ rule: string; base: string; head: string; key: string; settings?: Settings; result?: 'refused' | 'failed' }> = [
  { rule: 'tenant: templated project', base: ok, head: appset({ namespace: 'team-a', elements: envs('dev'), project: '{{env}}' }), key: 'team-a/guestbook' },
  { rule: 'tenant: AppProject missing', base: ok, head: appset({ namespace: 'team-a', elements: envs('dev'), project: 'ghost' }), key: 'team-a/guestbook' },
  {
    rule: 'tenant: namespace not in sourceNamespaces',
    base: ok,
    head: appset({ namespace: 'team-a', elements: envs('dev'), project: 'team-b' }),
    key: 'team-a/guestbook',
  },
  {
    rule: "tenant: generator repository outside the project's sourceRepos",
    base: ok,
    head: appset({
      namespace: 'team-a',
      elements: [],
      generators: [{ git: { repoURL: 'https://other.example/repo.git', revision: 'HEAD', directories: [{ path: '*' }] } }],
    }),
    key: 'team-a/guestbook',
    // The generator reports the refused repository as its own error, which the controller retries.
    result: 'failed',
  },
  {
    rule: "tenant: a templatePatch switches the Application's project",
    base: ok,
    head: appset({
      namespace: 'team-a',
      elements: envs('dev'),
      name_template: 'guestbook-{{.env}}',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'team-a-{{.env}}' },
      extra: { goTemplate: true, templatePatch: '{"spec": {"project": "default"}}' },
    }),
    key: 'team-a/guestbook',
    // Found at the render stage (a render error the controller retries), before the tenant check.
    result: 'failed',
  },
  {
    rule: 'tenant: Application source outside sourceRepos',
    base: ok,
    head: appset({ namespace: 'team-a', elements: envs('dev'), repoURL: 'https://other.example/x.git' }),
    key: 'team-a/guestbook',
  },
  {
    rule: 'tenant: destination outside the project',
    base: ok,
    head: appset({ namespace: 'team-a', elements: envs('dev'), destination: { server: 'https://kubernetes.default.svc', namespace: 'kube-system' } }),
    key: 'team-a/guestbook',
  },
  // The renderer finds duplicate names first: the controller reports a render error and retries (not terminal).
  { rule: 'duplicate names', base: ok, head: appset({ elements: envs('dev', 'prod'), name_template: 'guestbook' }), key: 'argocd/guestbook', result: 'failed' },
  { rule: 'Argo CD validation: AppProject does not exist', base: ok, head: appset({ elements: envs('dev'), project: 'nope' }), key: 'argocd/guestbook' },
  {
    rule: 'Argo CD validation: unknown destination cluster',
    base: ok,
    head: appset({ elements: envs('dev'), destination: { server: 'https://unknown.example', namespace: 'x' } }),
    key: 'argocd/guestbook',
  },
  {
    rule: 'jqPathExpressions',
    base: ok,
    head: appset({ elements: envs('dev'), extra: { ignoreApplicationDifferences: [{ jqPathExpressions: ['.spec'] }] } }),
    key: 'argocd/guestbook',
  },
  {
    rule: 'RollingSync deletionOrder Reverse',
    base: ok,
    head: appset({ elements: envs('dev'), extra: { strategy: { type: 'RollingSync', deletionOrder: 'Reverse', rollingSync: { steps: [] } } } }),
    key: 'argocd/guestbook',
    settings: { progressiveSyncs: true },
  },
  {
    rule: 'quota per ApplicationSet',
    base: ok,
    head: appset({ namespace: 'team-a', elements: envs('dev', 'qa') }),
    key: 'team-a/guestbook',
    settings: { perApplicationSet: 1 },
  },
  {
    rule: 'quota per namespace',
    base: docs(ok, appset({ name: 'other', namespace: 'team-a', elements: envs('dev') })),
    head: docs(ok, appset({ name: 'other', namespace: 'team-a', elements: envs('dev') }), appset({ namespace: 'team-a', elements: envs('dev', 'qa') })),
    key: 'team-a/guestbook',
    settings: { perNamespace: 2 },
  },
  {
    rule: 'ownership conflict',
    base: docs(appset({ elements: envs('dev') }), appset({ name: 'other', elements: envs('dev') })),
    head: docs(
      appset({
        elements: [
          { env: 'dev', app: 'guestbook-dev' },
          { env: 'x', app: 'other-dev' },
        ],
        name_template: '{{app}}',
      }),
      appset({ name: 'other', elements: envs('dev') }),
    ),
    key: 'argocd/guestbook',
  },
  { rule: 'deletion guard', base: appset({ elements: envs('a', 'b', 'c', 'd') }), head: appset({ elements: envs('a') }), key: 'argocd/guestbook' },
  { rule: 'render error (retried, not a refusal)', base: ok, head: appset({ elements: [{ cluster: 'dev' }] }), key: 'argocd/guestbook', result: 'failed' },
];

describe('appset diff reports every refusal exactly as the controller’s condition does', () => {
  const projects = tempFile('projects.yaml', PROJECTS);
  for (const c of CASES) {
    it(c.rule, async () => {
      const controller = (await controllerVerdicts(c.base, c.head, PROJECTS, c.settings)).get(c.key);
      assert.ok(controller && controller !== 'ok', `the controller accepts the case "${c.rule}"; the test must make it refuse`);
      const repo = await twoCommitRepo(c.base, c.head);
      const flags = [
        ...(c.settings?.perApplicationSet ? ['--max-applications-per-applicationset', String(c.settings.perApplicationSet)] : []),
        ...(c.settings?.perNamespace ? ['--max-applications-per-namespace', String(c.settings.perNamespace)] : []),
        ...(c.settings?.progressiveSyncs ? ['--enable-progressive-syncs'] : []),
      ];
      const { code, report, err } = await runDiff([
        '--repo',
        `https://git.example/apps.git=${repo}`,
        '--base',
        'base',
        '--head',
        'HEAD',
        '--projects',
        projects,
        '-o',
        'json',
        ...flags,
        join(repo, 'appsets.yaml'),
      ]);
      assert.equal(code, 2, err);
      const set = report?.applicationSets.find((s) => `${s.namespace}/${s.name}` === c.key);
      // A terminal failure waits for a change (refused); any other is retried (failed): diff says which, as the controller does.
      assert.deepEqual(set?.verdict, { result: controller.terminal ? 'refused' : 'failed', reason: controller.reason, message: controller.message });
      assert.equal(controller.terminal, (c.result ?? 'refused') === 'refused', 'the case is the kind of failure it is meant to be');
    });
  }
});
