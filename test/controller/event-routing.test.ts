import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routeEvents } from '../../src/controller/routing/event-routing.js';
import type { ControllerInformers } from '../../src/controller/routing/caches.js';
import type { KubeObject } from '../../src/kube/informer/index.js';
import type { Cause } from '../../src/controller/consistency/watermarks.js';

type Handler = (...objects: KubeObject[]) => void;

/** An informer double: a fixed store content and handlers the test fires by hand. */
function fakeInformer(objects: KubeObject[] = []) {
  const handlers: Record<string, Handler[]> = { add: [], update: [], delete: [] };
  return {
    store: { list: () => objects },
    on: (event: string, handler: Handler) => void handlers[event]?.push(handler),
    fire: (event: string, ...args: KubeObject[]) => handlers[event]?.forEach((h) => h(...args)),
  };
}

const appset = (name: string, generators: unknown[]): KubeObject => ({ metadata: { namespace: 'argocd', name, resourceVersion: '5' }, spec: { generators } });
const secret = (env: string, resourceVersion: string, type = 'cluster'): KubeObject => ({
  metadata: { namespace: 'argocd', name: 'c1', resourceVersion, labels: { 'argocd.argoproj.io/secret-type': type, env } },
});

function setUp() {
  const appsets = fakeInformer([
    appset('prod', [{ clusters: { selector: { matchLabels: { env: 'prod' } } } }]),
    appset('dev', [{ merge: { generators: [{ clusters: { selector: { matchLabels: { env: 'dev' } } } }, { list: { elements: [] } }] } }]),
    appset('list', [{ list: { elements: [] } }]),
  ]);
  const secrets = fakeInformer();
  const applications = fakeInformer();
  const enqueued: Array<[string, Cause | undefined]> = [];
  const projects = fakeInformer();
  const informers = { applicationSets: appsets, applications, secrets, projects } as unknown as ControllerInformers;
  routeEvents(informers, { enqueue: (key, cause) => enqueued.push([key, cause]), namespaceAllowed: () => true });
  return { appsets, secrets, applications, enqueued, keys: () => enqueued.map(([key]) => key).sort() };
}

describe('event routing', () => {
  it('enqueues for a cluster Secret only the ApplicationSets whose selector matches it, with the Secret as the cause', () => {
    const { secrets, enqueued, keys } = setUp();
    secrets.fire('add', secret('prod', '41'));
    assert.deepEqual(keys(), ['argocd/prod']);
    assert.deepEqual(enqueued[0]?.[1], { cache: 'secrets', resourceVersion: '41' });
  });

  it('enqueues on a relabel the ApplicationSets matching the old and the new labels', () => {
    const { secrets, keys } = setUp();
    secrets.fire('update', secret('prod', '41'), secret('dev', '42'));
    assert.deepEqual(keys(), ['argocd/dev', 'argocd/prod']);
  });

  it('enqueues on a delete the ApplicationSets that selected the Secret, and nothing for other Secrets', () => {
    const { secrets, keys } = setUp();
    secrets.fire('delete', secret('dev', '50'));
    assert.deepEqual(keys(), ['argocd/dev']);
    secrets.fire('add', secret('prod', '51', 'repository'));
    assert.deepEqual(keys(), ['argocd/dev'], 'a repository Secret routes nowhere');
  });

  it('gives ApplicationSet and Application events their own cache as the cause', () => {
    const { appsets, applications, enqueued } = setUp();
    appsets.fire('add', appset('list', []));
    const app = {
      metadata: {
        namespace: 'argocd',
        name: 'a',
        resourceVersion: '77',
        ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'list', controller: true }],
      },
    } as KubeObject;
    applications.fire('delete', app);
    assert.deepEqual(enqueued, [
      ['argocd/list', { cache: 'applicationSets', resourceVersion: '5' }],
      ['argocd/list', { cache: 'applications', resourceVersion: '77' }],
    ]);
  });
});

/** An ApplicationSet whose template uses `project`, optionally refused for its generated Applications. */
const projectAppSet = (name: string, project: string, refused = false): KubeObject => ({
  metadata: { namespace: 'argocd', name, resourceVersion: '5' },
  spec: { generators: [{ list: { elements: [] } }], template: { metadata: {}, spec: { project } } },
  status: refused ? { conditions: [{ type: 'ErrorOccurred', status: 'True', reason: 'ApplicationValidationError', message: 'x' }] } : {},
});

/** An Application owned by ApplicationSet `owner`, deployed to `destination`. */
const deployedApp = (name: string, owner: string, destination: Record<string, string>): KubeObject => ({
  metadata: {
    namespace: 'argocd',
    name,
    ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: owner, controller: true, uid: `uid-${owner}` }],
  },
  spec: { destination },
});

/** A cluster Secret for `server` named `name`, with labels `env`. */
const namedCluster = (name: string, server: string, resourceVersion: string, env = 'x'): KubeObject => ({
  metadata: { namespace: 'argocd', name: `cluster-${name}`, resourceVersion, labels: { 'argocd.argoproj.io/secret-type': 'cluster', env } },
  stringData: { name, server },
});

function validationSetUp() {
  const appsets = fakeInformer([
    projectAppSet('refused', 'default', true),
    projectAppSet('healthy', 'default'),
    projectAppSet('deploys-prod', 'default'),
    projectAppSet('deploys-local', 'default'),
    projectAppSet('team', 'team-a'),
    projectAppSet('templated', '{{project}}'),
  ]);
  const applications = fakeInformer([
    deployedApp('a', 'deploys-prod', { server: 'https://prod.example.com/' }),
    deployedApp('b', 'deploys-local', { name: 'in-cluster' }),
    deployedApp('c', 'healthy', { server: 'https://kubernetes.default.svc' }),
  ]);
  const secrets = fakeInformer();
  const projects = fakeInformer();
  const enqueued: Array<[string, Cause | undefined]> = [];
  const informers = { applicationSets: appsets, applications, secrets, projects } as unknown as ControllerInformers;
  routeEvents(informers, { enqueue: (key, cause) => enqueued.push([key, cause]), namespaceAllowed: () => true });
  const keys = (): string[] => [...new Set(enqueued.map(([key]) => key))].sort();
  return { secrets, projects, enqueued, keys, clear: () => void enqueued.splice(0) };
}

describe('event routing for the checks of generated Applications', () => {
  it('enqueues on a new cluster the ApplicationSets refused for their Applications, with the Secret as the cause', () => {
    const { secrets, enqueued, keys } = validationSetUp();
    secrets.fire('add', namedCluster('staging', 'https://staging.example.com', '61'));
    assert.deepEqual(keys(), ['argocd/refused']);
    assert.deepEqual(enqueued[0]?.[1], { cache: 'secrets', resourceVersion: '61' });
  });

  it('enqueues on a deleted or renamed cluster the owners of Applications deployed to it, by server or by name', () => {
    const { secrets, keys, clear } = validationSetUp();
    secrets.fire('delete', namedCluster('prod', 'https://prod.example.com', '62'));
    assert.deepEqual(keys(), ['argocd/deploys-prod', 'argocd/refused']);
    clear();
    // A Secret for the local server may rename it: Applications sent to in-cluster depend on it.
    secrets.fire('update', namedCluster('in-cluster', 'https://kubernetes.default.svc', '63'), namedCluster('local', 'https://kubernetes.default.svc', '64'));
    assert.deepEqual(keys(), ['argocd/deploys-local', 'argocd/healthy', 'argocd/refused']);
  });

  it('leaves the checks alone when a cluster Secret changes only its labels', () => {
    const { secrets, keys } = validationSetUp();
    secrets.fire('update', namedCluster('prod', 'https://prod.example.com', '65', 'a'), namedCluster('prod', 'https://prod.example.com', '66', 'b'));
    assert.deepEqual(keys(), []);
  });

  it('enqueues on an AppProject change the ApplicationSets whose templates name it or template it, with the AppProject as the cause', () => {
    const { projects, enqueued, keys, clear } = validationSetUp();
    projects.fire('add', { metadata: { namespace: 'argocd', name: 'team-a', resourceVersion: '70' }, spec: {} });
    assert.deepEqual(keys(), ['argocd/team', 'argocd/templated']);
    assert.deepEqual(enqueued[0]?.[1], { cache: 'projects', resourceVersion: '70' });
    clear();
    projects.fire('delete', { metadata: { namespace: 'argocd', name: 'default', resourceVersion: '71' } });
    assert.deepEqual(keys(), ['argocd/deploys-local', 'argocd/deploys-prod', 'argocd/healthy', 'argocd/refused', 'argocd/templated']);
  });

  it('enqueues on an AppProject update only when its spec changed', () => {
    const { projects, keys } = validationSetUp();
    const before = { metadata: { namespace: 'argocd', name: 'team-a', resourceVersion: '72' }, spec: { sourceRepos: ['*'] } } as KubeObject;
    projects.fire('update', before, { ...before, metadata: { ...before.metadata, resourceVersion: '73' }, status: { x: 1 } });
    assert.deepEqual(keys(), []);
    projects.fire('update', before, { ...before, spec: { sourceRepos: [] } });
    assert.deepEqual(keys(), ['argocd/team', 'argocd/templated']);
  });
});
