import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { DESTINATION_MISSING, destinationClusterProblem, indexClusters } from '../../src/controller/reconcile/destination-cluster.js';
import {
  assertApplicationsValid,
  describeProblems,
  findApplicationProblems,
  InvalidApplicationsError,
  type ValidatedApplication,
} from '../../src/controller/reconcile/validate-applications.js';
import { TerminalError } from '../../src/model/action.js';

/** An Argo CD cluster Secret; `undefined` leaves a key out (Argo CD's indexes then skip the Secret for it). */
function clusterSecret(secretName: string, data: { name?: string; server?: string }, type = 'cluster', encoding: 'data' | 'stringData' = 'data'): V1Secret {
  const values = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const encoded = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return {
    metadata: { name: secretName, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    ...(encoding === 'data' ? { data: encoded } : { stringData: values }),
  };
}

const NOT_FOUND = (server: string): string => `rpc error: code = NotFound desc = cluster "${server}" not found`;

const SECRETS: V1Secret[] = [
  clusterSecret('prod', { name: 'prod', server: 'https://prod.example.com' }),
  clusterSecret('slash', { name: 'slash', server: 'https://slash.example.com//' }),
  clusterSecret('twin-a', { name: 'twin', server: 'https://twin-b.example.com' }),
  clusterSecret('twin-b', { name: 'twin', server: 'https://twin-a.example.com/' }),
  clusterSecret('nameless', { server: 'https://nameless.example.com' }),
  clusterSecret('serverless', { name: 'serverless' }),
  clusterSecret('string-data', { name: 'plain', server: 'https://plain.example.com' }, 'cluster', 'stringData'),
  clusterSecret('a-repository', { name: 'repo', server: 'https://repo.example.com' }, 'repository'),
];

describe('destination cluster lookup (Argo CD GetDestinationCluster)', () => {
  const clusters = indexClusters(SECRETS);
  const cases: Array<[string, { server?: unknown; name?: unknown }, string | undefined]> = [
    ['the local cluster by server, without a Secret', { server: 'https://kubernetes.default.svc' }, undefined],
    ['the local cluster by its name in-cluster, without a Secret', { name: 'in-cluster' }, undefined],
    ['a Secret by server', { server: 'https://prod.example.com' }, undefined],
    ['a Secret by name', { name: 'prod' }, undefined],
    ['a Secret from stringData', { name: 'plain' }, undefined],
    ["a Secret's server with its trailing slashes trimmed", { server: 'https://slash.example.com' }, undefined],
    ['a Secret by name whose server has a trailing slash', { name: 'slash' }, undefined],
    [
      'a destination server with a trailing slash: Argo CD looks it up as written',
      { server: 'https://prod.example.com/' },
      `error getting cluster by server "https://prod.example.com/": ${NOT_FOUND('https://prod.example.com/')}`,
    ],
    [
      'an unknown server',
      { server: 'https://nowhere.example.com' },
      `error getting cluster by server "https://nowhere.example.com": ${NOT_FOUND('https://nowhere.example.com')}`,
    ],
    [
      "a server quoted as Go's %q does",
      { server: 'https://a"b\n' },
      'error getting cluster by server "https://a\\"b\\n": rpc error: code = NotFound desc = cluster "https://a\\"b\\n" not found',
    ],
    ['an unknown name', { name: 'staging' }, 'there are no clusters with this name: staging'],
    [
      'two Secrets of one name, servers sorted',
      { name: 'twin' },
      'there are 2 clusters with the same name: [https://twin-a.example.com https://twin-b.example.com]',
    ],
    [
      'a Secret without a name key is not found by its server as a name',
      { name: 'https://nameless.example.com' },
      'there are no clusters with this name: https://nameless.example.com',
    ],
    ['a Secret without a name key is found by server', { server: 'https://nameless.example.com' }, undefined],
    ['a Secret with a name and no server', { name: 'serverless' }, `error getting cluster by URL: ${NOT_FOUND('')}`],
    [
      'a Secret of another type is no cluster',
      { server: 'https://repo.example.com' },
      `error getting cluster by server "https://repo.example.com": ${NOT_FOUND('https://repo.example.com')}`,
    ],
    [
      'both name and server',
      { name: 'prod', server: 'https://prod.example.com' },
      "application destination can't have both name and server defined: prod https://prod.example.com",
    ],
    ['neither name nor server', {}, DESTINATION_MISSING],
    ['empty name and server', { name: '', server: '' }, DESTINATION_MISSING],
    ['values that are not strings count as missing', { server: 42, name: null }, DESTINATION_MISSING],
  ];
  for (const [what, destination, expected] of cases) {
    it(what, () => assert.equal(destinationClusterProblem(destination, clusters), expected));
  }

  it("has Argo CD's text for a missing destination", () => assert.equal(DESTINATION_MISSING, 'Destination server missing from app spec'));

  it('lets a Secret for the local server rename it: in-cluster is then unknown, its own name works', () => {
    const renamed = indexClusters([clusterSecret('local', { name: 'local', server: 'https://kubernetes.default.svc' })]);
    assert.equal(destinationClusterProblem({ name: 'in-cluster' }, renamed), 'there are no clusters with this name: in-cluster');
    assert.equal(destinationClusterProblem({ name: 'local' }, renamed), undefined);
    assert.equal(destinationClusterProblem({ server: 'https://kubernetes.default.svc' }, renamed), undefined);
  });

  it('keeps in-cluster when a Secret for the local server keeps that name', () => {
    const named = indexClusters([clusterSecret('local', { name: 'in-cluster', server: 'https://kubernetes.default.svc/' })]);
    assert.equal(destinationClusterProblem({ name: 'in-cluster' }, named), undefined);
  });
});

const app = (name: string, project: unknown, destination: unknown): ValidatedApplication => ({ metadata: { name }, spec: { project, destination } });
const world = { projectExists: (name: string) => name === 'default' || name === 'team-a', clusterSecrets: SECRETS };

describe('validating generated Applications (Argo CD validateGeneratedApplications)', () => {
  it('finds nothing wrong with valid Applications', () => {
    const apps = [app('a', 'default', { server: 'https://kubernetes.default.svc', namespace: 'a' }), app('b', 'team-a', { name: 'prod', namespace: 'b' })];
    assert.deepEqual(findApplicationProblems('set', apps, world), []);
  });

  it('names each invalid Application with the first of its problems, in the order generated', () => {
    const apps = [
      app('ok', 'default', { server: 'https://kubernetes.default.svc' }),
      app('no-project', 'missing', { server: 'https://nowhere.example.com' }),
      app('bad-server', 'default', { server: 'https://nowhere.example.com' }),
      app('bad-name', 'default', { name: 'staging' }),
      app('both', 'default', { name: 'prod', server: 'https://prod.example.com' }),
      app('ok', 'default', { server: 'https://kubernetes.default.svc' }),
      app('no-destination', 'default', undefined),
      app('empty-project', '', { server: 'https://kubernetes.default.svc' }),
    ];
    assert.deepEqual(findApplicationProblems('guestbook', apps, world), [
      { application: 'no-project', message: 'application references project missing which does not exist' },
      {
        application: 'bad-server',
        message: `application destination spec is invalid: error getting cluster by server "https://nowhere.example.com": ${NOT_FOUND('https://nowhere.example.com')}`,
      },
      { application: 'bad-name', message: 'application destination spec is invalid: there are no clusters with this name: staging' },
      {
        application: 'both',
        message: "application destination spec is invalid: application destination can't have both name and server defined: prod https://prod.example.com",
      },
      { application: 'ok', message: 'ApplicationSet guestbook contains applications with duplicate name: ok' },
      { application: 'no-destination', message: `application destination spec is invalid: ${DESTINATION_MISSING}` },
      { application: 'empty-project', message: 'application references project  which does not exist' },
    ]);
  });

  it('knows only the local cluster without cluster Secrets', () => {
    const bare = { projectExists: () => true, clusterSecrets: [] };
    assert.deepEqual(findApplicationProblems('set', [app('a', 'default', { name: 'in-cluster' })], bare), []);
    assert.equal(findApplicationProblems('set', [app('a', 'default', { name: 'prod' })], bare).length, 1);
  });

  it('describes the problems with counts, singular or plural, bounded to five', () => {
    const one = describeProblems([{ application: 'x', message: 'bad' }], 3);
    assert.equal(
      one,
      '1 of 3 generated Applications is invalid; no Application of this ApplicationSet is created, updated or deleted until it is fixed: Application x: bad',
    );
    const many = Array.from({ length: 7 }, (_, i) => ({ application: `app-${i}`, message: `m${i}` }));
    const text = describeProblems(many, 9);
    assert.match(text, /^7 of 9 generated Applications are invalid; .* until they are fixed: Application app-0: m0; /);
    assert.match(text, /Application app-4: m4 \(and 2 more\)$/);
    assert.doesNotMatch(text, /app-5/);
  });

  it('refuses the whole set with a terminal error carrying the problems and the requeue delay', () => {
    const apps = [app('good', 'default', { name: 'in-cluster' }), app('bad', 'default', { name: 'staging' })];
    assert.throws(
      () => assertApplicationsValid('set', apps, world, { requeueAfterMs: 1234 }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidApplicationsError && error instanceof TerminalError);
        assert.equal(error.requeueAfterMs, 1234);
        assert.deepEqual(
          error.problems.map((p) => p.application),
          ['bad'],
        );
        assert.match(
          error.message,
          /^1 of 2 generated Applications is invalid; .*Application bad: application destination spec is invalid: there are no clusters/,
        );
        return true;
      },
    );
    assert.doesNotThrow(() => assertApplicationsValid('set', [apps[0] as ValidatedApplication], world));
  });
});
