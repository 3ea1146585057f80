import type { Settings } from './diff-harness.js';

/**
 * The parity cases of `appset diff` against the real reconciler: every refusal the controller can make from an
 * ApplicationSet and the Applications it finds (test/cli/diff-refusal-coverage.test.ts checks that none is missing).
 */

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

/** The AppProjects of the cases: team-a and team-b, each for its own namespace. */
export const PROJECTS = [
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

/** One parity case: the controller reconciles `base`, then `head`; the ApplicationSet `key` of `head` is refused (or fails). */
export interface RefusalCase {
  readonly rule: string;
  readonly base: string;
  readonly head: string;
  readonly key: string;
  readonly settings?: Settings;
  readonly result?: 'refused' | 'failed';
}

/** Every refusal the controller can make from an ApplicationSet and the Applications it finds, with the head ApplicationSet refused. */
export const CASES: readonly RefusalCase[] = [
  { rule: 'tenant: templated project', base: ok, head: appset({ namespace: 'team-a', elements: envs('dev'), project: '{{env}}' }), key: 'team-a/guestbook' },
  { rule: 'tenant: AppProject missing', base: ok, head: appset({ namespace: 'team-a', elements: envs('dev'), project: 'ghost' }), key: 'team-a/guestbook' },
  { rule: 'tenant: no project', base: ok, head: appset({ namespace: 'team-a', elements: envs('dev'), project: '' }), key: 'team-a/guestbook' },
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
  },
  {
    rule: 'tenant: generator repository URL refused as unsafe',
    base: ok,
    head: appset({
      namespace: 'team-a',
      elements: [],
      generators: [{ git: { repoURL: 'https://127.0.0.1/repo.git', revision: 'HEAD', directories: [{ path: '*' }] } }],
    }),
    key: 'team-a/guestbook',
  },
  {
    rule: "tenant: a generator's template switches the Application's project",
    base: ok,
    head: appset({
      namespace: 'team-a',
      elements: [],
      generators: [{ list: { elements: envs('dev'), template: { metadata: {}, spec: { project: 'default' } } } }],
    }),
    key: 'team-a/guestbook',
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
  {
    rule: 'generator spec refused',
    base: ok,
    head: appset({ elements: [], generators: [{ list: { elementsYaml: '[unclosed' } }] }),
    key: 'argocd/guestbook',
  },
  {
    rule: 'refused repository URL',
    base: ok,
    head: appset({ elements: [], generators: [{ git: { repoURL: '-uhttps://git.example/x.git', revision: 'HEAD', directories: [{ path: '*' }] } }] }),
    key: 'argocd/guestbook',
  },
  { rule: 'duplicate names', base: ok, head: appset({ elements: envs('dev', 'prod'), name_template: 'guestbook' }), key: 'argocd/guestbook' },
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
    rule: 'RollingSync step malformed',
    base: ok,
    head: appset({
      elements: envs('dev'),
      extra: { strategy: { type: 'RollingSync', rollingSync: { steps: [{ matchExpressions: [{ key: 'env', operator: 'Exists' }] }] } } },
    }),
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
