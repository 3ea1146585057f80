import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { GitHubAppTokens } from '../../../src/scm/github-app.js';
import { createApiClient, type ApiAuth } from '../../../src/scm/http/api-client.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { ConfigMapKeyRef, ProviderConnection } from '../../../src/scm/provider.js';
import { createScmAccess, type ScmAccessParts, type ScmPolicy } from '../../../src/scm/scm-access.js';
import { SharedAnswers } from '../../../src/scm/shared-answers.js';
import { platformScmPolicy, tenantScmPolicy, type ScmSettings } from '../../../src/tenancy/scm-policy.js';
import { json, startLocalApi, type Answer, type LocalApi } from './local-api.js';
import { LOCAL_CERT, LOCAL_KEY } from './tls-fixture.js';

const NAMESPACE = 'argocd';
const STRICT = { allowFile: false, allowLoopback: false, allowLinkLocal: false };
const signal = (): AbortSignal => new AbortController().signal;

/** An SCM credential Secret as the API returns it: base64 data, Argo CD's type label, optionally shared with tenants. */
function scmSecret(name: string, data: Record<string, string>, options: { shared?: boolean; type?: string } = {}): V1Secret {
  const labels: Record<string, string> = { 'argocd.argoproj.io/secret-type': options.type ?? 'scm-creds' };
  if (options.shared) labels['appset-controller.io/shared-credentials'] = 'true';
  return {
    metadata: { name, namespace: NAMESPACE, labels },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
  };
}

const gitlabHeader = (token: string): ApiAuth => ({ kind: 'header', name: 'PRIVATE-TOKEN', value: token });

/** A GitLab connection with a token from Secret `gl` (key `token`) unless overridden. */
function connection(overrides: Partial<ProviderConnection> = {}): ProviderConnection {
  return {
    provider: 'gitlab',
    apiBase: 'https://gitlab.com/api/v4',
    customApiUrl: '',
    auth: { kind: 'token', ref: { secretName: 'gl', key: 'token' }, toAuth: gitlabHeader },
    insecure: false,
    ...overrides,
  };
}

/** A custom API: the spec's `api` and the base the provider makes of it. */
const custom = (api: string, base = `${api}/api/v4`): Partial<ProviderConnection> => ({ customApiUrl: api, apiBase: base });

interface Harness {
  parts: ScmAccessParts;
  secretReads: () => number;
}

function harness(policy: ScmPolicy, secrets: V1Secret[], extra: Partial<ScmAccessParts> = {}): Harness {
  let reads = 0;
  const parts: ScmAccessParts = {
    policy,
    secrets: () => {
      reads++;
      return secrets;
    },
    namespace: NAMESPACE,
    configMapValue: () => Promise.resolve(undefined),
    answers: new SharedAnswers(() => Promise.resolve(0), { reuseMs: 1000 }),
    githubApps: new GitHubAppTokens(),
    ...extra,
  };
  return { parts, secretReads: () => reads };
}

/** The identity a client with `auth` has: equal identities mean equal credentials. */
const identityOf = (auth: ApiAuth): string => createApiClient({ baseUrl: 'https://x.example', auth }).credentialIdentity;

const refusal =
  (...parts: RegExp[]) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof ScmRequestRefused, `expected a ScmRequestRefused, got ${String(error)}`);
    for (const part of parts) assert.match(error.message, part);
    return true;
  };

describe('scm access: the rules that need no Secret', () => {
  const secrets = [scmSecret('gl', { token: 'glpat-1' })];
  for (const [name, policy] of [
    ['platform', platformScmPolicy({ enabled: false, allowedApiUrls: [] })],
    ['tenant', tenantScmPolicy({ enabled: false, allowedApiUrls: [] }, 'team-a', STRICT)],
  ] as const) {
    it(`refuses everything when SCM providers are disabled (${name}), reading no Secret`, async () => {
      const { parts, secretReads } = harness(policy, secrets);
      await assert.rejects(createScmAccess(parts).connect(connection(), signal()), refusal(/disabled/, /--enable-scm-providers=false/));
      assert.equal(secretReads(), 0);
    });
  }

  it('refuses an api not in --allowed-scm-providers, for the platform too, naming the list', async () => {
    const settings = { enabled: true, allowedApiUrls: ['https://gitlab.internal.example', 'https://git.corp.example'] };
    const { parts, secretReads } = harness(platformScmPolicy(settings), secrets);
    await assert.rejects(
      createScmAccess(parts).connect(connection(custom('https://gitlab.attacker.example')), signal()),
      refusal(
        /API URL https:\/\/gitlab\.attacker\.example is not in --allowed-scm-providers \(https:\/\/gitlab\.internal\.example, https:\/\/git\.corp\.example\)/,
      ),
    );
    assert.equal(secretReads(), 0);
  });

  it('compares the api with --allowed-scm-providers as written, as Argo CD does', async () => {
    const { parts } = harness(platformScmPolicy({ enabled: true, allowedApiUrls: ['https://gitlab.internal.example'] }), secrets);
    await assert.rejects(createScmAccess(parts).connect(connection(custom('https://gitlab.internal.example/')), signal()), refusal(/--allowed-scm-providers/));
    const client = await createScmAccess(parts).connect(connection(custom('https://gitlab.internal.example')), signal());
    assert.equal(client.baseUrl, 'https://gitlab.internal.example/api/v4');
  });

  it("allows the provider's public API whatever the list holds (no api in the spec)", async () => {
    const { parts } = harness(platformScmPolicy({ enabled: true, allowedApiUrls: ['https://gitlab.internal.example'] }), secrets);
    assert.equal((await createScmAccess(parts).connect(connection(), signal())).baseUrl, 'https://gitlab.com/api/v4');
  });

  const unsafe: [string, string, RegExp][] = [
    ['a loopback IP', 'http://127.0.0.1:8080', /loopback/],
    ['the cloud metadata address', 'http://169.254.169.254', /link-local/],
    ['localhost', 'http://localhost:3000', /localhost is the controller itself \(loopback\)/],
    ['an IPv6 loopback', 'http://[::1]:3000', /loopback/],
    ['an ftp URL', 'ftp://files.example', /must be http or https/],
  ];
  for (const [name, api, why] of unsafe) {
    it(`refuses a tenant api on ${name}, naming the rule and sending nothing`, async () => {
      const { parts, secretReads } = harness(tenantScmPolicy({ enabled: true, allowedApiUrls: [] }, 'team-a', STRICT), secrets);
      await assert.rejects(createScmAccess(parts).connect(connection(custom(api)), signal()), refusal(/is refused: /, why, /nothing was sent/));
      assert.equal(secretReads(), 0);
    });
  }

  it('lets the platform use a loopback api (its own rules, not the tenants’)', async () => {
    const { parts } = harness(platformScmPolicy({ enabled: true, allowedApiUrls: [] }), secrets);
    assert.equal((await createScmAccess(parts).connect(connection(custom('http://127.0.0.1:8080')), signal())).baseUrl, 'http://127.0.0.1:8080/api/v4');
  });
});

describe('scm access: whose Secret may go where', () => {
  const settings: ScmSettings = { enabled: true, allowedApiUrls: ['https://gitlab.internal.example'] };
  const tenant = tenantScmPolicy(settings, 'team-a', STRICT);
  const secrets = [
    scmSecret('team-a-token', { token: 'a-token', project: 'team-a' }),
    scmSecret('team-b-token', { token: 'b-token', project: 'team-b' }),
    scmSecret('team-b-shared', { token: 'b-token', project: 'team-b' }, { shared: true }),
    scmSecret('platform-token', { token: 'platform' }),
    scmSecret('shared-token', { token: 'shared\n' }, { shared: true }),
    scmSecret('no-key', { other: 'x' }, { shared: true }),
  ];
  const using = (secretName: string, overrides: Partial<ProviderConnection> = {}): ProviderConnection =>
    connection({ auth: { kind: 'token', ref: { secretName, key: 'token' }, toAuth: gitlabHeader }, ...overrides });
  const connect = (policy: ScmPolicy, conn: ProviderConnection) => createScmAccess(harness(policy, secrets).parts).connect(conn, signal());

  it('refuses a Secret that is not among the SCM credential Secrets, naming it', async () => {
    await assert.rejects(connect(tenant, using('nope')), refusal(/Secret argocd\/nope is not among the SCM credential Secrets/, /scm-creds/));
  });

  it('refuses a Secret of another project, even one marked shared', async () => {
    await assert.rejects(connect(tenant, using('team-b-token')), refusal(/Secret argocd\/team-b-token is scoped to another project/));
    await assert.rejects(connect(tenant, using('team-b-shared')), refusal(/team-b-shared is scoped to another project/));
  });

  it('refuses a tenant the platform’s unscoped, unshared Secret', async () => {
    await assert.rejects(
      connect(tenant, using('platform-token')),
      refusal(/Secret argocd\/platform-token is scoped to another project \(or not shared with tenants\)/),
    );
  });

  it('refuses to send a shared platform Secret to an api the tenant chose', async () => {
    const tenantNoList = tenantScmPolicy({ enabled: true, allowedApiUrls: [] }, 'team-a', STRICT);
    await assert.rejects(
      connect(tenantNoList, using('shared-token', custom('https://gitlab.tenant-owned.example'))),
      refusal(
        /Secret argocd\/shared-token is the platform's/,
        /https:\/\/gitlab\.tenant-owned\.example\/api\/v4 is neither the provider's public API nor in --allowed-scm-providers/,
      ),
    );
  });

  it("sends a shared platform Secret to the provider's public API, trimmed", async () => {
    const client = await connect(tenant, using('shared-token'));
    assert.equal(client.baseUrl, 'https://gitlab.com/api/v4');
    assert.equal(client.credentialIdentity, identityOf(gitlabHeader('shared')));
  });

  it('sends a shared platform Secret to an api listed in --allowed-scm-providers', async () => {
    const client = await connect(tenant, using('shared-token', custom('https://gitlab.internal.example')));
    assert.equal(client.baseUrl, 'https://gitlab.internal.example/api/v4');
    assert.equal(client.credentialIdentity, identityOf(gitlabHeader('shared')));
  });

  it("sends the tenant's own project Secret to an api it chose", async () => {
    const tenantNoList = tenantScmPolicy({ enabled: true, allowedApiUrls: [] }, 'team-a', STRICT);
    const client = await connect(tenantNoList, using('team-a-token', custom('https://gitlab.tenant-owned.example')));
    assert.equal(client.credentialIdentity, identityOf(gitlabHeader('a-token')));
  });

  it('refuses a Secret without the key, naming key and Secret', async () => {
    await assert.rejects(connect(tenant, using('no-key')), refusal(/Secret argocd\/no-key has no key token/));
  });

  it('lets the platform use every SCM Secret, anywhere allowed', async () => {
    const platform = platformScmPolicy({ enabled: true, allowedApiUrls: [] });
    for (const name of ['team-a-token', 'team-b-token', 'platform-token', 'shared-token']) {
      const client = await connect(platform, using(name, custom('https://gitlab.anywhere.example')));
      assert.equal(client.baseUrl, 'https://gitlab.anywhere.example/api/v4', name);
    }
  });

  it('needs no Secret for anonymous access', async () => {
    const { parts, secretReads } = harness(tenant, secrets);
    const client = await createScmAccess(parts).connect(connection({ auth: { kind: 'none' } }), signal());
    assert.equal(client.credentialIdentity, identityOf({ kind: 'none' }));
    assert.equal(secretReads(), 0);
  });

  it('applies the Secret rules to the password of basic auth', async () => {
    const basic = (secretName: string): Partial<ProviderConnection> => ({
      auth: { kind: 'basic', username: 'svc', passwordRef: { secretName, key: 'token' } },
    });
    await assert.rejects(connect(tenant, connection(basic('team-b-token'))), refusal(/scoped to another project/));
    const client = await connect(tenant, connection(basic('team-a-token')));
    assert.equal(client.credentialIdentity, identityOf({ kind: 'basic', username: 'svc', password: 'a-token' }));
  });
});

describe('scm access: what reaches the API', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((req, res) =>
      json(res, 200, { authorization: req.headers['authorization'] ?? null, token: req.headers['private-token'] ?? null }),
    );
  });
  after(() => api.close());
  const platform = platformScmPolicy({ enabled: true, allowedApiUrls: [] });
  const secrets = [scmSecret('tok', { token: '  tok-1\n' }), scmSecret('pw', { password: 'app-pass' })];

  it('sends a token the way the provider wants it, trimmed', async () => {
    const bearer = connection({
      ...custom(api.origin, api.origin),
      auth: { kind: 'token', ref: { secretName: 'tok', key: 'token' }, toAuth: (t) => ({ kind: 'bearer', token: t }) },
    });
    const client = await createScmAccess(harness(platform, secrets).parts).connect(bearer, signal());
    assert.deepEqual((await client.request('user', signal())).body, { authorization: 'Bearer tok-1', token: null });
    const header = connection({ ...custom(api.origin, api.origin), auth: { kind: 'token', ref: { secretName: 'tok', key: 'token' }, toAuth: gitlabHeader } });
    const gitlab = await createScmAccess(harness(platform, secrets).parts).connect(header, signal());
    assert.deepEqual((await gitlab.request('user', signal())).body, { authorization: null, token: 'tok-1' });
  });

  it('sends basic auth with the user from the spec and the password from the Secret', async () => {
    const conn = connection({
      ...custom(api.origin, api.origin),
      auth: { kind: 'basic', username: 'svc', passwordRef: { secretName: 'pw', key: 'password' } },
    });
    const client = await createScmAccess(harness(platform, secrets).parts).connect(conn, signal());
    assert.deepEqual((await client.request('user', signal())).body, { authorization: `Basic ${Buffer.from('svc:app-pass').toString('base64')}`, token: null });
  });

  it('reports requests to onRequest', async () => {
    const records: string[] = [];
    const { parts } = harness(platform, secrets, { onRequest: (r) => records.push(`${r.path} ${r.status}`) });
    const client = await createScmAccess(parts).connect(connection({ ...custom(api.origin, `${api.origin}/api/v4`), auth: { kind: 'none' } }), signal());
    await client.request('projects', signal());
    assert.deepEqual(records, ['/api/v4/projects 200']);
  });

  it("hands the policy's address rule to the client: resolved and literal addresses are checked when sending", async () => {
    const tenant = tenantScmPolicy({ enabled: true, allowedApiUrls: [] }, 'team-a', STRICT);
    // Without the URL rule, only the address rule stands between the client and loopback.
    const addressOnly: ScmPolicy = { ...tenant, refusedUrl: undefined };
    const before = api.requests.length;
    for (const origin of [`http://localhost:${api.port}`, api.origin]) {
      const conn = connection({ ...custom(origin, origin), auth: { kind: 'none' } });
      const client = await createScmAccess(harness(addressOnly, []).parts).connect(conn, signal());
      await assert.rejects(client.request('x', signal()), refusal(/loopback/));
    }
    assert.equal(api.requests.length, before);
  });
});

describe('scm access: CA certificates (caRef, root CA)', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((_req, res) => json(res, 200, { tls: true }), { key: LOCAL_KEY, cert: LOCAL_CERT });
  });
  after(() => api.close());
  const platform = platformScmPolicy({ enabled: true, allowedApiUrls: [] });
  const caRef: ConfigMapKeyRef = { configMapName: 'gitlab-ca', key: 'ca.crt' };
  const base = (): ProviderConnection => connection({ ...custom(api.origin, api.origin), auth: { kind: 'none' } });
  const reader =
    (data: Record<string, string>, asked: ConfigMapKeyRef[] = []) =>
    (ref: ConfigMapKeyRef): Promise<string | undefined> => {
      asked.push(ref);
      return Promise.resolve(ref.configMapName === 'gitlab-ca' ? data[ref.key] : undefined);
    };

  it('does not trust a private CA by default', async () => {
    const client = await createScmAccess(harness(platform, []).parts).connect(base(), signal());
    await assert.rejects(
      client.request('x', signal()),
      (error: unknown) => error instanceof ScmApiError && error.status === 0 && /self-signed/.test(error.message),
    );
  });

  it('trusts the CA read from the caRef ConfigMap', async () => {
    const asked: ConfigMapKeyRef[] = [];
    const { parts } = harness(platform, [], { configMapValue: reader({ 'ca.crt': LOCAL_CERT }, asked) });
    const client = await createScmAccess(parts).connect({ ...base(), caRef }, signal());
    assert.deepEqual((await client.request('x', signal())).body, { tls: true });
    assert.deepEqual(asked, [caRef]);
  });

  it('refuses a caRef whose ConfigMap key is missing, naming it', async () => {
    const { parts } = harness(platform, [], { configMapValue: reader({}) });
    await assert.rejects(createScmAccess(parts).connect({ ...base(), caRef }, signal()), refusal(/ConfigMap argocd\/gitlab-ca has no key ca\.crt \(caRef\)/));
  });

  it('trusts the root CA of every provider', async () => {
    const client = await createScmAccess(harness(platform, [], { rootCa: LOCAL_CERT }).parts).connect(base(), signal());
    assert.deepEqual((await client.request('x', signal())).body, { tls: true });
  });

  it('skips verification with insecure', async () => {
    const client = await createScmAccess(harness(platform, []).parts).connect({ ...base(), insecure: true }, signal());
    assert.deepEqual((await client.request('x', signal())).body, { tls: true });
  });
});

describe('scm access: GitHub Apps', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const stranger = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const platform = platformScmPolicy({ enabled: true, allowedApiUrls: [] });
  const jwts: { header: Record<string, unknown>; payload: Record<string, unknown> }[] = [];
  let exchanges = 0;

  /** GitHub's API: installation tokens for a JWT signed with the app's key, then calls with that token. */
  const github: Answer = (req, res) => {
    const exchange = /^(.*)\/app\/installations\/(\d+)\/access_tokens$/.exec(req.url);
    if (req.method === 'POST' && exchange) {
      exchanges++;
      const [head = '', body = '', signature = ''] = (/^Bearer (.+)$/.exec(String(req.headers['authorization']))?.[1] ?? '').split('.');
      const valid = verify('RSA-SHA256', Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, 'base64url'));
      if (!valid) return json(res, 401, { message: 'A JSON web token could not be decoded' });
      jwts.push({
        header: JSON.parse(Buffer.from(head, 'base64url').toString()) as never,
        payload: JSON.parse(Buffer.from(body, 'base64url').toString()) as never,
      });
      return json(res, 201, { token: `ghs_installation_${exchange[2]}`, expires_at: new Date(Date.now() + 3600_000).toISOString() });
    }
    json(res, 200, { authorization: req.headers['authorization'] ?? null, path: req.url });
  };
  let api: LocalApi;
  let tlsApi: LocalApi;
  before(async () => {
    api = await startLocalApi(github);
    tlsApi = await startLocalApi(github, { key: LOCAL_KEY, cert: LOCAL_CERT });
  });
  after(async () => {
    await api.close();
    await tlsApi.close();
  });

  const appSecret = (name: string, extra: Record<string, string> = {}, key = privateKey): V1Secret =>
    scmSecret(name, { githubAppID: '123', githubAppInstallationID: '42', githubAppPrivateKey: key, ...extra }, { type: 'repo-creds' });
  const appConnection = (secretName: string, overrides: Partial<ProviderConnection> = {}): ProviderConnection => ({
    provider: 'github',
    apiBase: 'https://api.github.com',
    customApiUrl: '',
    auth: { kind: 'githubApp', secretName },
    insecure: false,
    ...overrides,
  });

  it('exchanges a JWT signed with the app key for an installation token, on the enterprise URL of the Secret', async () => {
    const before = { requests: api.requests.length, jwts: jwts.length };
    const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: api.origin })]);
    const started = Math.floor(Date.now() / 1000);
    const client = await createScmAccess(parts).connect(appConnection('gh-app'), signal());
    assert.equal(client.baseUrl, `${api.origin}/api/v3`, '/api/v3 appended as go-github does');
    const exchange = api.requests[before.requests];
    assert.equal(exchange?.method, 'POST');
    assert.equal(exchange?.url, '/api/v3/app/installations/42/access_tokens');
    const jwt = jwts[before.jwts];
    assert.ok(jwt, 'the JWT verified against the public key');
    assert.deepEqual(jwt.header, { alg: 'RS256', typ: 'JWT' });
    assert.equal(jwt.payload['iss'], '123');
    assert.ok(Math.abs((jwt.payload['iat'] as number) - (started - 60)) <= 2, 'issued a minute in the past');
    assert.equal((jwt.payload['exp'] as number) - (jwt.payload['iat'] as number), 600);
    assert.deepEqual((await client.request('orgs/o/repos', signal())).body, { authorization: 'Bearer ghs_installation_42', path: '/api/v3/orgs/o/repos' });
  });

  it('keeps the installation token: a second connect exchanges nothing, nor do concurrent ones', async () => {
    const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: `${api.origin}/` })]);
    const access = createScmAccess(parts);
    const before = exchanges;
    await Promise.all([access.connect(appConnection('gh-app'), signal()), access.connect(appConnection('gh-app'), signal())]);
    const again = await access.connect(appConnection('gh-app'), signal());
    assert.equal(exchanges - before, 1);
    assert.deepEqual((await again.request('user', signal())).body, { authorization: 'Bearer ghs_installation_42', path: '/api/v3/user' });
  });

  it('uses the api of the spec over the enterprise URL of the Secret', async () => {
    const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: 'https://ghe.elsewhere.invalid' })]);
    const client = await createScmAccess(parts).connect(appConnection('gh-app', { customApiUrl: api.origin, apiBase: `${api.origin}/api/v3` }), signal());
    assert.equal(client.baseUrl, `${api.origin}/api/v3`);
    assert.deepEqual((await client.request('user', signal())).body, { authorization: 'Bearer ghs_installation_42', path: '/api/v3/user' });
  });

  it('refuses a tenant an enterprise URL of its Secret on loopback, sending nothing', async () => {
    const tenant = tenantScmPolicy({ enabled: true, allowedApiUrls: [] }, 'team-a', STRICT);
    const before = api.requests.length;
    const { parts } = harness(tenant, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: api.origin, project: 'team-a' })]);
    await assert.rejects(createScmAccess(parts).connect(appConnection('gh-app'), signal()), refusal(/loopback/, /nothing was sent/));
    assert.equal(api.requests.length, before);
  });

  const broken: [string, Record<string, string>, RegExp][] = [
    ['no private key', { githubAppPrivateKey: '' }, /Secret argocd\/gh-app has no githubAppPrivateKey/],
    ['no app id', { githubAppID: ' ' }, /has no githubAppID/],
    ['an installation id that is not a number', { githubAppInstallationID: '42/../../admin' }, /githubAppInstallationID must be a number/],
    ['a private key that is not one', { githubAppPrivateKey: 'not a key' }, /githubAppPrivateKey is not a usable RSA private key/],
  ];
  for (const [name, data, why] of broken) {
    it(`refuses a GitHub App Secret with ${name}`, async () => {
      const before = api.requests.length;
      const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: api.origin, ...data })]);
      await assert.rejects(createScmAccess(parts).connect(appConnection('gh-app'), signal()), refusal(why));
      assert.equal(api.requests.length, before);
    });
  }

  it('refuses an enterprise URL in the Secret that does not parse, naming the Secret', async () => {
    const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: 'ghe.example.com:not a url' })]);
    await assert.rejects(createScmAccess(parts).connect(appConnection('gh-app'), signal()), refusal(/gh-app/, /githubAppEnterpriseBaseUrl/));
  });

  it('does not hand a cached installation token to a Secret holding another private key', async () => {
    const tokens = new GitHubAppTokens();
    const good = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: api.origin })], { githubApps: tokens });
    await createScmAccess(good.parts).connect(appConnection('gh-app'), signal());
    const forged = appSecret('forged-app', { githubAppEnterpriseBaseUrl: api.origin }, stranger.privateKey);
    const other = harness(platform, [forged], { githubApps: tokens });
    await assert.rejects(createScmAccess(other.parts).connect(appConnection('forged-app'), signal()), ScmApiError, 'a key GitHub does not know earns no token');
  });

  it('trusts the root CA for the installation token exchange as for the calls that follow', async () => {
    const { parts } = harness(platform, [appSecret('gh-app', { githubAppEnterpriseBaseUrl: tlsApi.origin })], { rootCa: LOCAL_CERT });
    const client = await createScmAccess(parts).connect(appConnection('gh-app'), signal());
    assert.deepEqual((await client.request('user', signal())).body, { authorization: 'Bearer ghs_installation_42', path: '/api/v3/user' });
  });
});
