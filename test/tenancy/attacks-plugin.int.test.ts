import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SHARED_CREDENTIALS_LABEL } from '../../src/model/secrets.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { json, startLocalApi, type LocalApi } from '../scm/unit/local-api.js';
import { AttackCluster, IN_CLUSTER, tenantSpec } from './attack-harness.js';

// The attack suite for the plugin generator: hostile tenants name plugin ConfigMaps and token Secrets of other
// projects or of the platform, and plugins whose baseUrl is the controller's own loopback or cloud metadata.
// Each is refused with a condition and a Warning Event naming the rule; nothing is written, and the trap
// plugin standing on loopback never receives a request.

describe('attack suite: tenant plugin generators cannot reach what they must not', () => {
  const cluster = new AttackCluster(adminKubeConfig());
  let trap: LocalApi;
  let good: LocalApi;
  let platform = '';
  let tenant = '';
  let openPlatform = '';
  let openTenant = '';

  const secret = (namespace: string, name: string, data: Record<string, string>, labels: Record<string, string> = {}) =>
    cluster.core.createNamespacedSecret({ namespace, body: { metadata: { name, labels }, stringData: { token: 'plugin-token', ...data } } });
  const configMap = (namespace: string, name: string, data: Record<string, string>, labels: Record<string, string> = {}) =>
    cluster.core.createNamespacedConfigMap({ namespace, body: { metadata: { name, labels }, data } });
  const spec = (name: string, configMapName: string) => {
    const s = tenantSpec(name, {
      project: 'plugteam',
      goTemplate: true,
      generators: [{ plugin: { configMapRef: { name: configMapName }, input: { parameters: { attack: name } }, requeueAfterSeconds: 3600 } }],
      destination: { server: IN_CLUSTER, namespace: 'team-plugins' },
    }) as { template: { metadata: { name: string } } };
    s.template.metadata.name = `${name}-{{ .env }}`;
    return s;
  };
  const refused = (title: string, name: string, configMapName: string, rule: () => RegExp): void => {
    it(title, async () => {
      await cluster.applicationSet(tenant, name, spec(name, configMapName));
      const message = await cluster.assertRefused({ namespace: tenant, name, rule: rule() }, 60_000);
      assert.match(message, rule());
      assert.equal(trap.requests.length, 0, 'the loopback trap received a request');
    });
  };

  before(async () => {
    trap = await startLocalApi((_req, res) => json(res, 200, { output: { parameters: [{ env: 'trapped' }] } }));
    good = await startLocalApi((_req, res) => json(res, 200, { output: { parameters: [{ env: 'dev' }] } }));
    const trapPort = trap.port;

    // A platform with the default tenant rules: loopback and link-local refused.
    platform = await cluster.namespace('atkplug-platform');
    tenant = await cluster.namespace('atkplug-tenant');
    await cluster.project(platform, 'plugteam', { sourceNamespaces: [tenant], sourceRepos: ['*'], destinations: [{ server: IN_CLUSTER, namespace: '*' }] });
    await secret(platform, 'own-token', { project: 'plugteam' });
    await secret(platform, 'other-token', { project: 'someone-else' });
    await secret(platform, 'platform-token', {});
    const elsewhere = 'https://plugin.allowed.example';
    await configMap(platform, 'other-plugin', { baseUrl: trap.origin, token: '$own-token:token', project: 'someone-else' });
    await configMap(platform, 'platform-plugin', { baseUrl: trap.origin, token: '$platform-token:token' });
    await configMap(platform, 'stolen-token', { baseUrl: elsewhere, token: '$other-token:token', project: 'plugteam' });
    await configMap(platform, 'platform-token-plugin', { baseUrl: elsewhere, token: '$platform-token:token', project: 'plugteam' });
    await configMap(platform, 'loopback-plugin', { baseUrl: trap.origin, token: '$own-token:token', project: 'plugteam' });
    await configMap(platform, 'localhost-plugin', { baseUrl: `http://localhost:${trapPort}`, token: '$own-token:token', project: 'plugteam' });
    await configMap(platform, 'metadata-plugin', { baseUrl: 'http://169.254.169.254', token: '$own-token:token', project: 'plugteam' });
    await cluster.controller({ namespace: platform, 'applicationset-namespaces': [tenant] });

    // A platform that lets tenants reach loopback (local development): the positive control.
    openPlatform = await cluster.namespace('atkplug-open');
    openTenant = await cluster.namespace('atkplug-opentenant');
    await cluster.project(openPlatform, 'plugteam', {
      sourceNamespaces: [openTenant],
      sourceRepos: ['*'],
      destinations: [{ server: IN_CLUSTER, namespace: '*' }],
    });
    await secret(openPlatform, 'shared-token', {}, { [SHARED_CREDENTIALS_LABEL]: 'true' });
    await configMap(openPlatform, 'team-plugin', { baseUrl: good.origin, token: '$shared-token:token', project: 'plugteam' });
    await cluster.controller({ namespace: openPlatform, 'applicationset-namespaces': [openTenant], 'allow-local-repos': true });
  });
  after(async () => {
    await cluster.cleanUp();
    await Promise.all([trap?.close(), good?.close()]);
  });

  it("uses its own project's plugin with a shared token (positive control)", async () => {
    await cluster.applicationSet(openTenant, 'own', spec('own', 'team-plugin'));
    await cluster.assertApplications(openTenant, ['own-dev'], 60_000);
    assert.equal(good.requests.length > 0, true);
    assert.equal(good.requests[0]?.headers.authorization, 'Bearer plugin-token');
  });

  refused(
    "another project's plugin ConfigMap",
    'othercm',
    'other-plugin',
    () => /plugin ConfigMap atkplug-platform-\w+\/other-plugin is scoped to another project/,
  );
  refused(
    "the platform's own (unshared) plugin ConfigMap",
    'platformcm',
    'platform-plugin',
    () => /plugin ConfigMap atkplug-platform-\w+\/platform-plugin is scoped to another project \(or not shared with tenants\)/,
  );
  refused("another project's token Secret", 'stolen', 'stolen-token', () => /token Secret atkplug-platform-\w+\/other-token is scoped to another project/);
  refused(
    "the platform's own (unshared) token Secret",
    'platformtoken',
    'platform-token-plugin',
    () => /token Secret atkplug-platform-\w+\/platform-token is scoped to another project/,
  );
  refused(
    "a plugin on the controller's loopback",
    'loopback',
    'loopback-plugin',
    () => /is refused: address 127\.0\.0\.1 is the controller itself \(loopback\)/,
  );
  refused('a plugin on localhost by name', 'localhost', 'localhost-plugin', () => /host localhost is the controller itself \(loopback\)/);
  refused('a plugin on the link-local cloud metadata address', 'metadata', 'metadata-plugin', () => /address 169\.254\.169\.254 is link-local/);
  refused('a plugin ConfigMap that does not exist', 'nocm', 'no-such-plugin', () => /plugin ConfigMap atkplug-platform-\w+\/no-such-plugin not found/);
});
