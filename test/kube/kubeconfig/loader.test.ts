import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KubeConfigError, loadKubeConfig } from '../../../src/kube/kubeconfig.js';
import { b64, kubeconfig, tempDir } from './temp-files.js';

const SERVER = 'https://api.example:6443';

describe('loadKubeConfig: sources', () => {
  it('reads YAML, with the current context, its namespace and a trailing slash dropped from the server', async (t) => {
    const { write } = tempDir(t);
    const file = write(
      'config',
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: c',
        '  cluster: {server: "https://api.example:6443/", insecure-skip-tls-verify: true}',
        '- name: other',
        '  cluster: {server: "https://other", proxy-url: "http://proxy"}',
        'users: [{name: u, user: {token: abc}}]',
        'contexts:',
        '- {name: ctx, context: {cluster: c, user: u, namespace: team-a}}',
        '- {name: unused, context: {cluster: other}}',
        'current-context: ctx',
      ].join('\n'),
    );
    const kc = loadKubeConfig(file, { env: {} });
    assert.equal(kc.server, SERVER);
    assert.equal(kc.namespace, 'team-a');
    const connection = await kc.connection();
    assert.deepEqual(connection.headers, { Authorization: 'Bearer abc' });
    assert.equal(connection.tls.rejectUnauthorized, false);
  });

  it('merges the files of KUBECONFIG as kubectl does: the first to define an entry or current-context wins', async (t) => {
    const { write } = tempDir(t);
    const first = write('a', {
      clusters: [{ name: 'c', cluster: { server: 'https://first' } }],
      users: [{ name: 'u', user: { token: 'first-token' } }],
    });
    const second = write('b', {
      ...kubeconfig({ server: 'https://second' }, { token: 'second-token' }),
      contexts: [
        { name: 'ctx', context: { cluster: 'c', user: 'u' } },
        { name: 'ctx2', context: { cluster: 'c' } },
      ],
    });
    const third = write('c', { 'current-context': 'ctx2', contexts: [{ name: 'ctx', context: { cluster: 'nope' } }] });
    const missing = join(tempDir(t).dir, 'does-not-exist');
    const kc = loadKubeConfig(undefined, { env: { KUBECONFIG: [missing, first, second, third].join(':') } });
    assert.equal(kc.server, 'https://first');
    assert.deepEqual((await kc.connection()).headers, { Authorization: 'Bearer first-token' });
  });

  it('takes a path list as the explicit file too (--kubeconfig is bound to KUBECONFIG)', (t) => {
    const { write } = tempDir(t);
    const list = [write('a', { clusters: [{ name: 'c', cluster: { server: 'https://a' } }] }), write('b', kubeconfig({ server: 'https://b' }))].join(':');
    assert.equal(loadKubeConfig(list, { env: {} }).server, 'https://a');
  });

  it('reads ~/.kube/config when KUBECONFIG is unset, and an explicit file over both', (t) => {
    const { dir, write } = tempDir(t);
    write('.kube/config', kubeconfig({ server: 'https://home' }));
    const env = { HOME: dir, KUBECONFIG: write('env', kubeconfig({ server: 'https://env' })) };
    assert.equal(loadKubeConfig(undefined, { env: { HOME: dir } }).server, 'https://home');
    assert.equal(loadKubeConfig(undefined, { env }).server, 'https://env');
    assert.equal(loadKubeConfig(write('explicit', kubeconfig({ server: 'https://explicit' })), { env }).server, 'https://explicit');
  });

  it('uses ~/.kube/config before the pod service account (client-node 1.4 order)', (t) => {
    const { dir, write } = tempDir(t);
    write('.kube/config', kubeconfig({ server: 'https://home' }));
    write('sa/token', 'pod-token');
    const env = { HOME: dir, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };
    assert.equal(loadKubeConfig(undefined, { env, serviceAccountDir: join(dir, 'sa') }).server, 'https://home');
  });

  it('fails clearly when there is nothing to load', (t) => {
    const { dir } = tempDir(t);
    assert.throws(() => loadKubeConfig(undefined, { env: { HOME: dir }, serviceAccountDir: join(dir, 'sa') }), /no kubeconfig: give --kubeconfig/);
    assert.throws(() => loadKubeConfig(join(dir, 'missing')), /cannot read kubeconfig .*missing: ENOENT/);
    assert.throws(() => loadKubeConfig(undefined, { env: { KUBECONFIG: join(dir, 'x') } }), /none of the kubeconfig files exists/);
  });
});

describe('loadKubeConfig: clusters and TLS', () => {
  it('resolves relative certificate-authority, tokenFile and client certificate paths against the kubeconfig file', async (t) => {
    const { write } = tempDir(t);
    write('sub/ca.pem', 'CA-PEM');
    write('sub/token', 'file-token\n');
    write('sub/tls/client.crt', 'CERT-PEM');
    write('sub/tls/client.key', 'KEY-PEM');
    const file = write(
      'sub/config',
      kubeconfig(
        { server: SERVER, 'certificate-authority': 'ca.pem', 'tls-server-name': 'kubernetes' },
        { tokenFile: './token', 'client-certificate': 'tls/client.crt', 'client-key': 'tls/client.key' },
      ),
    );
    const connection = await loadKubeConfig(file).connection();
    assert.deepEqual(connection.tls, { ca: 'CA-PEM', cert: 'CERT-PEM', key: 'KEY-PEM', rejectUnauthorized: true, servername: 'kubernetes' });
    assert.deepEqual(connection.headers, { Authorization: 'Bearer file-token' });
  });

  it('decodes the -data fields', async (t) => {
    const { write } = tempDir(t);
    const file = write(
      'config',
      kubeconfig({ server: SERVER, 'certificate-authority-data': b64('CA') }, { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }),
    );
    const { tls, headers } = await loadKubeConfig(file).connection();
    assert.deepEqual([tls.ca, tls.cert, tls.key, headers], ['CA', 'CERT', 'KEY', {}]);
  });

  it('reads token and certificate files again on every resolution, so rotated ones are used', async (t) => {
    const { write } = tempDir(t);
    write('token', 'one');
    write('crt', 'CERT-1');
    write('key', 'KEY-1');
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { tokenFile: 'token', 'client-certificate': 'crt', 'client-key': 'key' })));
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer one');
    write('token', 'two');
    write('crt', 'CERT-2');
    const after = await kc.connection();
    assert.equal(after.headers.Authorization, 'Bearer two');
    assert.equal(after.tls.cert, 'CERT-2');
  });
});

describe('loadKubeConfig: users', () => {
  it('sends basic auth for username and password', async (t) => {
    const { write } = tempDir(t);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { username: 'alice', password: 's3cret' })));
    assert.equal((await kc.connection()).headers.Authorization, `Basic ${b64('alice:s3cret')}`);
  });

  it('prefers token over tokenFile, as kubectl does', async (t) => {
    const { write } = tempDir(t);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { token: 'inline', tokenFile: 'absent' })));
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer inline');
  });

  it('sends impersonation headers for as, as-groups and as-uid', async (t) => {
    const { write } = tempDir(t);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { token: 't', as: 'bob', 'as-groups': ['g1', 'g2'], 'as-uid': '42' })));
    assert.deepEqual((await kc.connection()).headers, {
      Authorization: 'Bearer t',
      'Impersonate-User': 'bob',
      'Impersonate-Group': ['g1', 'g2'],
      'Impersonate-Uid': '42',
    });
  });
});

describe('loadKubeConfig: errors name the field', () => {
  const cases: Array<[string, object, RegExp]> = [
    ['auth-provider', kubeconfig({ server: SERVER }, { 'auth-provider': { name: 'gcp' } }), /user "u" \(.*\): field "auth-provider" is not supported/],
    ['proxy-url', kubeconfig({ server: SERVER, 'proxy-url': 'http://p' }), /cluster "c" \(.*\): field "proxy-url" is not supported/],
    ['as-user-extra', kubeconfig({ server: SERVER }, { as: 'x', 'as-user-extra': { k: ['v'] } }), /field "as-user-extra" is not supported/],
    ['missing server', kubeconfig({}), /cluster "c" .*field "server" is missing/],
    ['bad server', kubeconfig({ server: 'not a url' }), /field "server" is not a URL/],
    ['missing cluster', { ...kubeconfig({ server: SERVER }), clusters: [] }, /context "ctx" .*cluster "c" is not defined/],
    ['missing user', { ...kubeconfig({ server: SERVER }, { token: 't' }), users: [] }, /context "ctx" .*user "u" is not defined/],
    ['missing context', { ...kubeconfig({ server: SERVER }), 'current-context': 'gone' }, /no context "gone"/],
    ['no current context', { ...kubeconfig({ server: SERVER }), 'current-context': '' }, /no current-context/],
    [
      'insecure with CA',
      kubeconfig({ server: SERVER, 'insecure-skip-tls-verify': true, 'certificate-authority-data': b64('CA') }),
      /insecure-skip-tls-verify.*certificate authority/,
    ],
    ['cert without key', kubeconfig({ server: SERVER }, { 'client-certificate-data': b64('C') }), /client-key is missing/],
    [
      'file and data',
      kubeconfig({ server: SERVER }, { 'client-key': 'k', 'client-key-data': b64('K'), 'client-certificate-data': b64('C') }),
      /only one of "client-key" and "client-key-data"/,
    ],
    [
      'token and basic',
      kubeconfig({ server: SERVER }, { token: 't', username: 'u', password: 'p' }),
      /only one of token\/tokenFile, username\/password and exec/,
    ],
    ['wrong type', kubeconfig({ server: SERVER, 'insecure-skip-tls-verify': 'yes' }), /"insecure-skip-tls-verify" must be true or false/],
    ['as-groups without as', kubeconfig({ server: SERVER }, { 'as-groups': ['g'] }), /"as-groups" and "as-uid" need "as"/],
    [
      'exec v1alpha1',
      kubeconfig({ server: SERVER }, { exec: { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x' } }),
      /apiVersion .*v1alpha1.* is not supported/,
    ],
  ];
  for (const [name, doc, message] of cases) {
    it(name, (t) => {
      const { write } = tempDir(t);
      assert.throws(
        () => loadKubeConfig(write('config', doc)),
        (error: unknown) => error instanceof KubeConfigError && message.test(error.message),
      );
    });
  }

  it('an unreadable tokenFile fails the resolution, naming the user and the file', async (t) => {
    const { write } = tempDir(t);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { tokenFile: 'gone' })));
    await assert.rejects(kc.connection(), /user "u" .*tokenFile: cannot read .*gone: ENOENT/);
  });

  it('YAML that does not parse names the file', (t) => {
    const { write } = tempDir(t);
    const file = write('config', 'clusters: [unclosed');
    assert.throws(() => loadKubeConfig(file), /config: not valid YAML/);
  });
});

describe('loadKubeConfig: fields kubeconfig does not define', () => {
  it('are ignored as kubectl ignores them, e.g. the name client-node exportConfig writes into a context', async (t) => {
    const { write } = tempDir(t);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER, 'disable-compression': true }, { token: 't', extensions: [] }, { name: 'ctx' })));
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer t');
  });
});
