import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { PluginError, PluginRequestRefused } from '../../../src/scm/plugin/errors.js';
import { createPluginAccess, type PluginAccessParts, type PluginPolicy } from '../../../src/scm/plugin/plugin-access.js';
import { platformPluginPolicy, tenantPluginPolicy } from '../../../src/tenancy/plugin-policy.js';
import { json, startLocalApi, type LocalApi } from './local-api.js';

const NAMESPACE = 'argocd';
const STRICT = { allowFile: false, allowLoopback: false, allowLinkLocal: false };
const LOCAL = { allowFile: false, allowLoopback: true, allowLinkLocal: false };
const SHARED = { 'appset-controller.io/shared-credentials': 'true' };
const signal = (): AbortSignal => new AbortController().signal;

const configMap = (name: string, data: Record<string, string>, labels: Record<string, string> = {}): V1ConfigMap => ({
  metadata: { name, namespace: NAMESPACE, labels },
  data,
});
const secret = (name: string, data: Record<string, string>, labels: Record<string, string> = {}): V1Secret => ({
  metadata: { name, namespace: NAMESPACE, labels },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

/** Plugin access over fixed ConfigMaps and Secrets; small limits so the limit tests run fast. */
function access(policy: PluginPolicy, configMaps: V1ConfigMap[], secrets: V1Secret[], extra: Partial<PluginAccessParts> = {}) {
  const byName =
    <T extends { metadata?: { name?: string } }>(items: T[]) =>
    (name: string) =>
      Promise.resolve(items.find((i) => i.metadata?.name === name));
  return createPluginAccess({
    policy,
    namespace: NAMESPACE,
    configMap: byName(configMaps),
    secret: byName(secrets),
    maxTimeoutMs: 10_000,
    maxResponseBytes: 64 * 1024,
    ...extra,
  });
}

const request = (configMapName = 'my-plugin', parameters: Record<string, unknown> = { branch: 'main' }) => ({
  configMapName,
  applicationSetName: 'myplugin',
  parameters,
});

const failure =
  (type: typeof PluginError | typeof PluginRequestRefused, ...parts: RegExp[]) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof type, `expected a ${type.name}, got ${String(error)}`);
    for (const part of parts) assert.match(error.message, part);
    return true;
  };

describe('plugin access: the request Argo CD sends and the answer it reads', () => {
  let api: LocalApi;
  let plugin: V1ConfigMap;
  const token = secret('plugin-secret', { 'plugin.token': '  strong-password\n' });
  before(async () => {
    api = await startLocalApi((_req, res) => json(res, 200, { output: { parameters: [{ key1: 'val1' }, { key1: 'val2', n: 2 }] } }));
    plugin = configMap('my-plugin', { baseUrl: `${api.origin}/prefix/`, token: '$plugin-secret:plugin.token', requestTimeout: '5' });
  });
  after(() => api.close());

  it('POSTs {applicationSetName, input.parameters} with the bearer token to <baseUrl>/api/v1/getparams.execute', async () => {
    const from = api.requests.length;
    const answer = await access(platformPluginPolicy(), [plugin], [token]).call(
      request('my-plugin', { branch: 'main', list: [1, true], map: { a: 'b' } }),
      signal(),
    );
    assert.deepEqual(answer, [{ key1: 'val1' }, { key1: 'val2', n: 2 }]);
    const seen = api.requests[from];
    assert.ok(seen);
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/prefix/api/v1/getparams.execute');
    assert.equal(seen.headers.authorization, 'Bearer strong-password');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(seen.body), { applicationSetName: 'myplugin', input: { parameters: { branch: 'main', list: [1, true], map: { a: 'b' } } } });
  });

  it("reads `$key` from argocd-secret, as Argo CD's ParseSecretKey does", async () => {
    const from = api.requests.length;
    const cm = configMap('default-secret', { baseUrl: api.origin, token: '$plugin.myplugin.token' });
    await access(platformPluginPolicy(), [cm], [secret('argocd-secret', { 'plugin.myplugin.token': 'from-argocd-secret' })]).call(
      request('default-secret'),
      signal(),
    );
    assert.equal(api.requests[from]?.headers.authorization, 'Bearer from-argocd-secret');
  });

  const answers: [string, (res: ServerResponse) => void, RegExp][] = [
    ['an error status, with the plugin message', (res) => json(res, 500, { message: 'database down' }), /answered 500: database down/],
    [
      'a body that is not JSON',
      (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>'),
      /answer is not JSON: "<html>oops<\/html>"/,
    ],
    ['broken JSON', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"output": '), /answer is not JSON/],
    ['an empty body', (res) => res.writeHead(200).end(), /answer is empty/],
    ['no output.parameters', (res) => json(res, 200, {}), /has no output\.parameters list/],
    ['parameters that are not a list', (res) => json(res, 200, { output: { parameters: { a: 1 } } }), /has no output\.parameters list/],
    [
      'a parameter set that is not an object',
      (res) => json(res, 200, { output: { parameters: [{ a: 1 }, 'x'] } }),
      /output\.parameters\[1\] .* is not an object \(string\)/,
    ],
    ['a null parameter set', (res) => json(res, 200, { output: { parameters: [null] } }), /output\.parameters\[0\] .* is not an object \(null\)/],
  ];
  for (const [title, answer, message] of answers) {
    it(`fails on ${title}, naming the ConfigMap`, async () => {
      api.answer((_req, res) => answer(res));
      try {
        await assert.rejects(
          access(platformPluginPolicy(), [plugin], [token]).call(request(), signal()),
          failure(PluginError, /plugin ConfigMap argocd\/my-plugin/, message),
        );
      } finally {
        api.answer((_req, res) => json(res, 200, { output: { parameters: [] } }));
      }
    });
  }

  it('an empty list is an answer: no parameter sets', async () => {
    api.answer((_req, res) => json(res, 200, { output: { parameters: [] } }));
    assert.deepEqual(await access(platformPluginPolicy(), [plugin], [token]).call(request(), signal()), []);
  });
});

describe('plugin access: time and size limits', () => {
  let api: LocalApi;
  let streamed = 0;
  let streamClosed = false;
  const token = secret('plugin-secret', { token: 't' });
  before(async () => {
    api = await startLocalApi((req, res) => {
      if (req.url.startsWith('/slow/')) return; // never answers
      // An endless answer, 16 KiB at a time: the client must stop reading it, not buffer it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"output": {"parameters": [');
      const timer = setInterval(() => {
        streamed += 16 * 1024;
        res.write(`{"k": "${'x'.repeat(16 * 1024)}"},`);
      }, 5);
      res.on('close', () => {
        streamClosed = true;
        clearInterval(timer);
      });
    });
  });
  after(() => api.close());

  it("gives up after the ConfigMap's requestTimeout", async () => {
    const cm = configMap('slow', { baseUrl: `${api.origin}/slow`, token: '$plugin-secret:token', requestTimeout: '1' });
    const started = Date.now();
    await assert.rejects(
      access(platformPluginPolicy(), [cm], [token]).call(request('slow'), signal()),
      failure(PluginError, /argocd\/slow: .* gave no answer within 1 s/),
    );
    const took = Date.now() - started;
    assert.ok(took >= 900 && took < 5_000, `took ${took} ms`);
  });

  it("bounds requestTimeout by the controller's maximum", async () => {
    const cm = configMap('slow', { baseUrl: `${api.origin}/slow`, token: '$plugin-secret:token', requestTimeout: '3600' });
    const started = Date.now();
    await assert.rejects(
      access(platformPluginPolicy(), [cm], [token], { maxTimeoutMs: 300 }).call(request('slow'), signal()),
      failure(PluginError, /gave no answer within 0\.3 s/),
    );
    assert.ok(Date.now() - started < 3_000);
  });

  it('refuses an answer over the size limit while it arrives, without reading it whole', async () => {
    const cm = configMap('big', { baseUrl: `${api.origin}/big`, token: '$plugin-secret:token' });
    await assert.rejects(
      access(platformPluginPolicy(), [cm], [token]).call(request('big'), signal()),
      failure(PluginError, /argocd\/big: .*larger than 65536 bytes/),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(streamClosed, 'the connection was closed');
    assert.ok(streamed < 1024 * 1024, `the plugin could send only ${streamed} bytes before being cut off`);
  });

  it('stops when the reconcile is cancelled', async () => {
    const cm = configMap('slow', { baseUrl: `${api.origin}/slow`, token: '$plugin-secret:token' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('reconcile cancelled')), 50);
    await assert.rejects(access(platformPluginPolicy(), [cm], [token]).call(request('slow'), controller.signal), /reconcile cancelled/);
  });
});

describe('plugin access: the ConfigMap and its token', () => {
  const ok = secret('s', { token: 't' });
  const cases: [string, V1ConfigMap[], V1Secret[], RegExp][] = [
    ['a missing ConfigMap', [], [ok], /plugin ConfigMap argocd\/my-plugin not found/],
    ['no baseUrl', [configMap('my-plugin', { token: '$s:token' })], [ok], /argocd\/my-plugin: baseUrl not found in ConfigMap/],
    ['no token', [configMap('my-plugin', { baseUrl: 'https://p.example' })], [ok], /argocd\/my-plugin: token not found in ConfigMap/],
    ['a literal token', [configMap('my-plugin', { baseUrl: 'https://p.example', token: 'abc' })], [ok], /token must reference a Secret key starting with '\$'/],
    [
      'a bad requestTimeout',
      [configMap('my-plugin', { baseUrl: 'https://p.example', token: '$s:token', requestTimeout: '1m' })],
      [ok],
      /requestTimeout "1m" is not a whole number/,
    ],
    ['a missing Secret', [configMap('my-plugin', { baseUrl: 'https://p.example', token: '$nope:token' })], [ok], /token Secret argocd\/nope not found/],
    ['a missing key', [configMap('my-plugin', { baseUrl: 'https://p.example', token: '$s:other' })], [ok], /token Secret argocd\/s has no key other/],
  ];
  for (const [title, configMaps, secrets, message] of cases) {
    it(`fails on ${title}`, async () => {
      await assert.rejects(access(platformPluginPolicy(), configMaps, secrets).call(request(), signal()), failure(PluginError, message));
    });
  }
});

describe('plugin access: tenants (nothing is sent when refused)', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((_req, res) => json(res, 200, { output: { parameters: [{ a: 'b' }] } }));
  });
  after(() => api.close());
  const own = secret('own', { token: 't', project: 'team' });
  const other = secret('other', { token: 't', project: 'someone-else' });
  const shared = secret('shared', { token: 't' }, SHARED);
  const platformOnly = secret('platform', { token: 't' });
  const secrets = [own, other, shared, platformOnly];
  const plugin = (name: string, token: string, scope: { project?: string; shared?: boolean } = { project: 'team' }, baseUrl = api.origin) =>
    configMap(name, { baseUrl, token: `$${token}:token`, ...(scope.project ? { project: scope.project } : {}) }, scope.shared ? SHARED : {});

  it("uses its own project's ConfigMap and Secret, and shared ones (positive control, loopback allowed)", async () => {
    const configMaps = [plugin('own', 'own'), plugin('shared', 'shared', { shared: true })];
    assert.deepEqual(await access(tenantPluginPolicy('team', LOCAL), configMaps, secrets).call(request('own'), signal()), [{ a: 'b' }]);
    assert.deepEqual(await access(tenantPluginPolicy('team', LOCAL), configMaps, secrets).call(request('shared'), signal()), [{ a: 'b' }]);
  });

  const refused: [string, () => V1ConfigMap, RegExp, typeof STRICT?][] = [
    ["another project's ConfigMap", () => plugin('x', 'own', { project: 'someone-else' }), /plugin ConfigMap argocd\/x is scoped to another project/],
    [
      "the platform's unshared ConfigMap",
      () => plugin('x', 'own', {}),
      /plugin ConfigMap argocd\/x is scoped to another project \(or not shared with tenants\)/,
    ],
    ["another project's token Secret", () => plugin('x', 'other'), /token Secret argocd\/other is scoped to another project/],
    ["the platform's unshared token Secret", () => plugin('x', 'platform'), /token Secret argocd\/platform is scoped to another project/],
    ['a loopback baseUrl', () => plugin('x', 'own'), /baseUrl http:\/\/127\.0\.0\.1:\d+ is refused: address 127\.0\.0\.1 is the controller itself/, STRICT],
    ['localhost by name', () => plugin('x', 'own', { project: 'team' }, 'http://localhost:1'), /host localhost is the controller itself/, STRICT],
    ['the metadata address', () => plugin('x', 'own', { project: 'team' }, 'http://169.254.169.254'), /address 169\.254\.169\.254 is link-local/, LOCAL],
    ['link-local IPv6', () => plugin('x', 'own', { project: 'team' }, 'http://[fe80::1]:80'), /link-local/, LOCAL],
    ['a file: URL', () => plugin('x', 'own', { project: 'team' }, 'file:///etc/passwd'), /a plugin baseUrl must be http or https/, LOCAL],
  ];
  for (const [title, cm, message, allowances = LOCAL] of refused) {
    it(`refuses ${title}`, async () => {
      const from = api.requests.length;
      await assert.rejects(
        access(tenantPluginPolicy('team', allowances), [cm()], secrets).call(request('x'), signal()),
        failure(PluginRequestRefused, message),
      );
      assert.equal(api.requests.length, from, 'nothing was sent');
    });
  }

  it('checks the address a host name resolves to, not only the written host', async () => {
    // A URL rule that lets every name through stands for a name it cannot know (a DNS record pointing at loopback).
    const policy = { ...tenantPluginPolicy('team', STRICT), refusedUrl: () => undefined };
    const from = api.requests.length;
    await assert.rejects(
      access(policy, [plugin('x', 'own', { project: 'team' }, `http://localhost:${api.port}`)], secrets).call(request('x'), signal()),
      failure(PluginRequestRefused, /API host localhost is refused: address 127\.0\.0\.1 is the controller itself/, /nothing was sent/),
    );
    assert.equal(api.requests.length, from, 'nothing was sent');
  });

  it('the platform may use any ConfigMap, Secret and address (as Argo CD)', async () => {
    assert.deepEqual(await access(platformPluginPolicy(), [plugin('x', 'platform', {})], secrets).call(request('x'), signal()), [{ a: 'b' }]);
  });
});
