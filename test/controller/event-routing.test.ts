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
  const informers = { applicationSets: appsets, applications, secrets } as unknown as ControllerInformers;
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
