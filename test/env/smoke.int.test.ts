import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ApiException, CustomObjectsApi, RbacAuthorizationV1Api, Watch, VersionApi } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { createTestNamespace, type TestNamespace } from './namespaces.js';
import { adminKubeConfig, impersonatingKubeConfig, sharedEnvironment, sharedGitFixtures } from './shared-environment.js';
import { git } from '../../src/environment/local/git-fixtures.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { sampleApplication, sampleApplicationSet } from '../fixtures.js';
import { ownerReferenceTo } from '../../src/model/objects.js';

const GROUP = 'argoproj.io';
const VERSION = 'v1alpha1';

describe('test environment smoke tests: every part is the real thing', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;

  before(async () => (ns = await createTestNamespace(kc, 'smoke')));
  after(() => ns.delete());

  it('is a real kube-apiserver reporting the version it was built from', async () => {
    const goMod = readFileSync(fileURLToPath(new URL('../../../go-build/kube-build/go.mod', import.meta.url)), 'utf8');
    const pinned = /^require k8s\.io\/kubernetes (v\S+)$/m.exec(goMod)?.[1];
    assert.ok(pinned, 'kube-build/go.mod pins k8s.io/kubernetes');
    const version = await kc.makeApiClient(VersionApi).getCode();
    assert.equal(version.gitVersion, pinned);
    assert.equal(version.gitTreeState, 'clean');
  });

  it('enforces RBAC, also for an impersonated service account', async () => {
    const user = `system:serviceaccount:${ns.name}:probe`;
    const asProbe = impersonatingKubeConfig(user).makeApiClient(CustomObjectsApi);
    const list = (): Promise<unknown> => asProbe.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: ns.name, plural: 'applicationsets' });
    await assert.rejects(list(), (error: unknown) => error instanceof ApiException && error.code === 403);
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: ns.name,
      body: { metadata: { name: 'probe' }, rules: [{ apiGroups: [GROUP], resources: ['applicationsets'], verbs: ['list'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: ns.name,
      body: {
        metadata: { name: 'probe' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'probe' },
        subjects: [{ kind: 'ServiceAccount', name: 'probe', namespace: ns.name }],
      },
    });
    await waitFor(() => list().then(() => true), { what: 'the RoleBinding to take effect', timeoutMs: 10_000 });
  });

  it('delivers an ApplicationSet created through client-node to a watch', async () => {
    const seen: string[] = [];
    const request = await new Watch(kc).watch(
      `/apis/${GROUP}/${VERSION}/namespaces/${ns.name}/applicationsets`,
      {},
      (phase, object: { metadata?: { name?: string } }) => seen.push(`${phase} ${object.metadata?.name}`),
      () => undefined,
    );
    try {
      await custom.createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns.name,
        plural: 'applicationsets',
        body: sampleApplicationSet(ns.name, 'watched'),
      });
      await waitFor(() => seen.includes('ADDED watched'), { what: 'the ADDED watch event', timeoutMs: 10_000 });
    } finally {
      request.abort();
    }
  });

  it('garbage-collects an Application after its owning ApplicationSet is deleted', async () => {
    const owner = (await custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: ns.name,
      plural: 'applicationsets',
      body: sampleApplicationSet(ns.name, 'owner'),
    })) as { metadata: { uid: string } };
    const app = sampleApplication(ns.name, 'owned');
    app.metadata = {
      ...app.metadata,
      ownerReferences: [
        { apiVersion: `${GROUP}/${VERSION}`, kind: 'ApplicationSet', name: 'owner', uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true },
      ],
    };
    await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: ns.name, plural: 'applications', body: app });
    await custom.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: ns.name,
      plural: 'applicationsets',
      name: 'owner',
      propagationPolicy: 'Background',
    });
    await waitFor(
      async () => {
        try {
          await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: ns.name, plural: 'applications', name: 'owned' });
          return false;
        } catch (error) {
          return error instanceof ApiException && error.code === 404;
        }
      },
      { what: 'the garbage collector to delete the owned Application', timeoutMs: 60_000, intervalMs: 250 },
    );
  });

  it('enforces OwnerReferencesPermissionEnforcement: blockOwnerDeletion needs update on the owner’s finalizers', async () => {
    // The controller sets blockOwnerDeletion on every Application it owns. Clusters that turn this plugin
    // on (OpenShift does) refuse that unless the writer may update applicationsets/finalizers, so the chart
    // grants it; with the plugin on here, the chart tests prove the grant is enough.
    const user = `system:serviceaccount:${ns.name}:owner-writer`;
    const asWriter = impersonatingKubeConfig(user).makeApiClient(CustomObjectsApi);
    const owned = (name: string, blockOwnerDeletion: boolean): ReturnType<typeof sampleApplication> => {
      const app = sampleApplication(ns.name, name);
      // The owner reference the controller sends, with blockOwnerDeletion set as asked.
      app.metadata = {
        ...app.metadata,
        ownerReferences: [{ ...ownerReferenceTo({ name: 'any', namespace: ns.name, uid: '7d1c8a52-1f4e-4c55-9a0e-3b2f6c1d8e90' }), blockOwnerDeletion }],
      };
      return app;
    };
    const create = (body: object): Promise<unknown> =>
      asWriter.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: ns.name, plural: 'applications', body, dryRun: 'All' });
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    // Delete is granted too: the plugin also asks for it before anyone may set ownerReferences at all.
    const applications = { apiGroups: [GROUP], resources: ['applications'], verbs: ['create', 'get', 'delete'] };
    await rbac.createNamespacedRole({ namespace: ns.name, body: { metadata: { name: 'owner-writer' }, rules: [applications] } });
    await rbac.createNamespacedRoleBinding({
      namespace: ns.name,
      body: {
        metadata: { name: 'owner-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'owner-writer' },
        subjects: [{ kind: 'ServiceAccount', name: 'owner-writer', namespace: ns.name }],
      },
    });
    await waitFor(() => create(owned('plain', false)).then(() => true), { what: 'the RoleBinding to take effect', timeoutMs: 10_000 });
    await assert.rejects(
      create(owned('blocking', true)),
      (error: unknown) => error instanceof ApiException && error.code === 403 && /cannot set blockOwnerDeletion/.test(String(error.body)),
    );
    const finalizers = { apiGroups: [GROUP], resources: ['applicationsets/finalizers'], verbs: ['update'] };
    await rbac.replaceNamespacedRole({
      namespace: ns.name,
      name: 'owner-writer',
      body: { metadata: { name: 'owner-writer' }, rules: [applications, finalizers] },
    });
    await waitFor(() => create(owned('blocking', true)).then(() => true), {
      what: 'blockOwnerDeletion allowed once the finalizers rule is in',
      timeoutMs: 10_000,
    });
  });

  it('round-trips a value through a real Redis', async () => {
    const redis = new Redis(sharedEnvironment().redisUrl, { lazyConnect: true });
    try {
      await redis.connect();
      const key = `smoke:${ns.name}`;
      await redis.set(key, 'value', 'EX', 60);
      assert.equal(await redis.get(key), 'value');
      const info = await redis.info('server');
      assert.match(info, /redis_version:\d+/);
    } finally {
      redis.disconnect();
    }
  });

  describe('Git over HTTP with basic auth and over file://', () => {
    const info = sharedEnvironment();
    const work = mkdtempSync(join(tmpdir(), 'smoke-clone-'));
    let httpUrl: string;
    let fileUrl: string;

    before(async () => {
      const repo = await sharedGitFixtures().createRepo(`smoke-${ns.name}`, { 'apps/guestbook/config.json': '{"env":"dev"}\n' });
      httpUrl = repo.httpUrl;
      fileUrl = repo.fileUrl;
    });
    after(() => rmSync(work, { recursive: true, force: true }));

    const withCredentials = (url: string, user: string, password: string): string => {
      const parsed = new URL(url);
      parsed.username = user;
      parsed.password = password;
      return parsed.href;
    };

    it('clones with the right credentials', async () => {
      await git(work, ['clone', '-q', withCredentials(httpUrl, info.gitUsername, info.gitPassword), 'right']);
      assert.equal(readFileSync(join(work, 'right/apps/guestbook/config.json'), 'utf8'), '{"env":"dev"}\n');
    });

    it('refuses a clone with a wrong password or none', async () => {
      await assert.rejects(git(work, ['clone', '-q', withCredentials(httpUrl, info.gitUsername, 'wrong'), 'wrong']), /Authentication failed|401/);
      await assert.rejects(git(work, ['clone', '-q', httpUrl, 'anonymous']), /could not read Username|Authentication failed|401/);
    });

    it('clones over file://', async () => {
      await git(work, ['clone', '-q', fileUrl, 'local']);
      assert.equal(readFileSync(join(work, 'local/apps/guestbook/config.json'), 'utf8'), '{"env":"dev"}\n');
    });
  });
});
