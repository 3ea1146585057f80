import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };

describe('tenancy end to end: tenants generate only inside their AppProject', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let platform: TestNamespace;
  let tenant: TestNamespace;
  let controller: RunningController;

  const apps = async (): Promise<string[]> =>
    (
      (await custom.listNamespacedCustomObject({ ...G, namespace: tenant.name, plural: 'applications' })) as { items: Array<{ metadata: { name: string } }> }
    ).items
      .map((a) => a.metadata.name)
      .sort();
  const errorOf = async (name: string): Promise<string | undefined> => {
    const appset = (await custom.getNamespacedCustomObject({ ...G, namespace: tenant.name, plural: 'applicationsets', name })) as {
      status?: { conditions?: Array<{ type: string; status: string; message: string }> };
    };
    const condition = appset.status?.conditions?.find((c) => c.type === 'ErrorOccurred' && c.status === 'True');
    return condition?.message;
  };
  const createAppSet = (name: string, overrides: { project?: string; repoURL?: string; namespace?: string; generators?: unknown[] }) =>
    custom.createNamespacedCustomObject({
      ...G,
      namespace: tenant.name,
      plural: 'applicationsets',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name, namespace: tenant.name },
        spec: {
          generators: overrides.generators ?? [{ list: { elements: [{ env: 'dev' }] } }],
          template: {
            metadata: { name: `${name}-{{env}}` },
            spec: {
              project: overrides.project ?? 'team',
              source: { repoURL: overrides.repoURL ?? 'https://git.example/team/apps.git', path: 'apps', targetRevision: 'HEAD' },
              destination: { server: 'https://kubernetes.default.svc', namespace: overrides.namespace ?? 'team-{{env}}' },
            },
          },
        },
      },
    });
  const refused = async (name: string, rule: RegExp): Promise<void> => {
    const message = await waitFor(
      async () => {
        const current = await errorOf(name);
        return current !== undefined && rule.test(current) ? current : undefined;
      },
      { what: `the refusal of ${name} matching ${String(rule)}`, timeoutMs: 20_000 },
    );
    assert.match(message, rule);
    assert.deepEqual(
      (await apps()).filter((a) => a.startsWith(`${name}-`)),
      [],
      'nothing was written',
    );
  };

  before(async () => {
    platform = await createTestNamespace(kc, 'platform');
    tenant = await createTestNamespace(kc, 'tenant');
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: platform.name,
      plural: 'appprojects',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'AppProject',
        metadata: { name: 'team' },
        spec: {
          sourceNamespaces: [tenant.name],
          sourceRepos: ['https://git.example/team/*'],
          destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'team-*' }],
        },
      },
    });
    const config = readControllerConfig(
      {
        namespace: platform.name,
        'applicationset-namespaces': [tenant.name],
        'listen-address': '127.0.0.1:0',
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'tenancy-git-')),
      },
      {},
    );
    controller = await startController(config, kc, pino({ level: 'silent' }));
    await controller.ready;
  });
  after(async () => {
    await controller.stop(5_000);
    await Promise.all([tenant.delete(), platform.delete()]);
  });

  it('generates what the project allows', async () => {
    await createAppSet('allowed', {});
    await waitFor(async () => (await apps()).includes('allowed-dev'), { what: 'the allowed Application', timeoutMs: 20_000 });
  });

  it('refuses a templated project', async () => {
    await createAppSet('templated', { project: '{{env}}' });
    await refused('templated', /must be a literal AppProject name/);
  });

  it('refuses a project that does not exist', async () => {
    await createAppSet('noproject', { project: 'platform-admin' });
    await refused('noproject', /AppProject platform-admin does not exist/);
  });

  it('refuses a destination namespace outside the project', async () => {
    await createAppSet('escape', { namespace: 'kube-system' });
    await refused('escape', /namespace kube-system is not in the destinations of AppProject team/);
  });

  it('refuses a source repository outside the project', async () => {
    await createAppSet('otherrepo', { repoURL: 'https://git.example/platform/secrets.git' });
    await refused('otherrepo', /not in the sourceRepos of AppProject team/);
  });

  it("refuses a git generator reading the controller's own disk", async () => {
    await createAppSet('filerepo', { generators: [{ git: { repoURL: 'file:///var/lib/appset', revision: 'HEAD', directories: [{ path: '*' }] } }] });
    await refused('filerepo', /file:\/\/ and local paths are not allowed/);
  });
});
