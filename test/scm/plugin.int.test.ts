import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { startReplicas, namespaceObjects, type Replicas } from '../controller/replicas.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { json, startLocalApi, type LocalApi, type SeenRequest } from './unit/local-api.js';

// The plugin generator end to end: a real plugin HTTP service started here, a controller replica on the real API
// server and Redis calling it every 2 s (requeueAfterSeconds). A changed answer changes the Applications; a
// failing plugin (500, no answer in time, an answer over the size limit) gives the condition and Event and
// deletes nothing.

const IN_CLUSTER = 'https://kubernetes.default.svc';
const TOKEN = 'strong-password';

type Mode = 'ok' | 'error' | 'silent' | 'huge';

describe('plugin generator against a real plugin service', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;
  let plugin: LocalApi;
  let mode: Mode = 'ok';
  let names = ['alpha', 'beta'];

  /** The plugin: Argo CD's protocol, checking the token, answering per `mode`. */
  const answer = (req: SeenRequest, res: ServerResponse): void => {
    if (req.url !== '/api/v1/getparams.execute' || req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 403, { message: 'forbidden' });
    const { input } = JSON.parse(req.body) as { input: { parameters: { team: string } } };
    if (mode === 'error') return json(res, 500, { message: 'inventory database down' });
    if (mode === 'silent') return; // never answers
    if (mode === 'huge') return json(res, 200, { output: { parameters: [{ name: 'x', pad: 'x'.repeat(5 * 1024 * 1024) }] } });
    json(res, 200, { output: { parameters: names.map((name, i) => ({ name, count: i + 1, info: { tier: `${input.parameters.team}-gold` } })) } });
  };

  const appset = (name: string, goTemplate: boolean): Record<string, unknown> => {
    const p = (param: string): string => (goTemplate ? `{{ .${param} }}` : `{{${param}}}`);
    return {
      ...(goTemplate ? { goTemplate: true, goTemplateOptions: ['missingkey=error'] } : {}),
      syncPolicy: { preserveResourcesOnDeletion: true },
      generators: [
        {
          plugin: {
            configMapRef: { name: 'inventory-plugin' },
            input: { parameters: { team: name } },
            values: { owner: `owner-${p('name')}` },
            requeueAfterSeconds: 2,
          },
        },
      ],
      template: {
        metadata: {
          name: `${name}-${p('name')}`,
          annotations: {
            tier: p('info.tier'),
            count: p('count'),
            owner: p('values.owner'),
            ...(goTemplate ? { team: p('generator.input.parameters.team') } : {}),
          },
        },
        spec: { project: 'default', source: { repoURL: 'https://git.example/apps.git', path: 'apps' }, destination: { server: IN_CLUSTER, namespace: 'apps' } },
      },
    };
  };
  const live = (prefix: string): Promise<string> => objects.liveNames(prefix);
  const until = (what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<true> =>
    waitFor(async () => (await probe()) || undefined, { what, timeoutMs, intervalMs: 100 });
  const uids = async (prefix: string): Promise<string> =>
    [...(await objects.apps(prefix)).values()]
      .map((a) => `${a.metadata.name}=${a.metadata.uid}`)
      .sort()
      .join(',');

  before(async () => {
    plugin = await startLocalApi(answer);
    ns = await createControllerNamespace(kc, 'plugin');
    objects = namespaceObjects(kc, ns.name);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({ namespace: ns.name, body: { metadata: { name: 'plugin-secret' }, stringData: { 'plugin.token': TOKEN } } });
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'inventory-plugin' }, data: { baseUrl: plugin.origin, token: '$plugin-secret:plugin.token', requestTimeout: '2' } },
    });
    replicas = await startReplicas(kc, ns.name, 1, { 'resync-period': '1h' });
    await objects.createAppSet('goplug', appset('goplug', true));
    await objects.createAppSet('fastplug', appset('fastplug', false));
  });
  after(async () => {
    await replicas?.stop();
    await ns?.delete();
    await plugin?.close();
  });

  it("creates the plugin's Applications, with Argo CD's parameters in both template styles", async () => {
    await until(
      'the Applications of both ApplicationSets',
      async () => (await live('goplug-')) === 'goplug-alpha,goplug-beta' && (await live('fastplug-')) === 'fastplug-alpha,fastplug-beta',
    );
    const apps = await objects.apps();
    // The template's annotations, without the controller's own bookkeeping.
    const annotations = (name: string) =>
      Object.fromEntries(
        Object.entries((apps.get(name)?.metadata as { annotations?: Record<string, string> }).annotations ?? {}).filter(
          ([k]) => !k.startsWith('appset-controller.io/'),
        ),
      );
    // Argo CD holds an input parameter as a raw JSON struct and prints it as Go prints that struct: the bytes of "goplug".
    const rawTeam = `{[${[...Buffer.from('"goplug"')].join(' ')}]}`;
    assert.deepEqual({ ...annotations('goplug-beta') }, { tier: 'goplug-gold', count: '2', owner: 'owner-beta', team: rawTeam });
    assert.deepEqual({ ...annotations('fastplug-alpha') }, { tier: 'fastplug-gold', count: '1', owner: 'owner-alpha' });
    const seen = plugin.requests.find((r) => (JSON.parse(r.body) as { applicationSetName?: string }).applicationSetName === 'goplug');
    assert.deepEqual(JSON.parse(seen?.body ?? '{}'), { applicationSetName: 'goplug', input: { parameters: { team: 'goplug' } } });
  });

  it('a changed answer changes the Applications at the next requeue', async () => {
    names = ['beta', 'gamma'];
    await until(
      'the new answer',
      async () => (await live('goplug-')) === 'goplug-beta,goplug-gamma' && (await live('fastplug-')) === 'fastplug-beta,fastplug-gamma',
    );
    const condition = await objects.condition('goplug', 'ErrorOccurred');
    assert.equal(condition?.status, 'False');
  });

  const failures: [string, Mode, RegExp][] = [
    [
      'an error status',
      'error',
      /plugin ConfigMap plugin-\w+\/inventory-plugin: POST 127\.0\.0\.1:\d+\/api\/v1\/getparams\.execute answered 500: inventory database down/,
    ],
    [
      'no answer within requestTimeout',
      'silent',
      /plugin ConfigMap plugin-\w+\/inventory-plugin: the plugin at http:\/\/127\.0\.0\.1:\d+ gave no answer within 2 s/,
    ],
    ['an answer over the size limit', 'huge', /plugin ConfigMap plugin-\w+\/inventory-plugin: .*the answer is larger than 4194304 bytes/],
  ];
  for (const [title, failing, message] of failures) {
    it(`a plugin failing with ${title} gives the condition and an Event, and deletes nothing`, async () => {
      const before = await uids('goplug-');
      const beforeFast = await uids('fastplug-');
      mode = failing;
      try {
        await until(`the ErrorOccurred condition for ${failing}`, async () => {
          const condition = await objects.condition('goplug', 'ErrorOccurred');
          return condition?.status === 'True' && message.test(condition.message);
        });
        await until(`a Warning Event for ${failing}`, async () =>
          (await objects.events('goplug')).some((e) => e.type === 'Warning' && message.test(e.message ?? '')),
        );
        // Several more failed runs (every 2 s or sooner with backoff): still nothing deleted or changed.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        assert.equal(await uids('goplug-'), before);
        assert.equal(await uids('fastplug-'), beforeFast);
      } finally {
        mode = 'ok';
      }
      await until('recovery once the plugin answers again', async () => (await objects.condition('goplug', 'ErrorOccurred'))?.status === 'False');
    });
  }
});
