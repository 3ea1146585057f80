import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SHARED_CREDENTIALS_LABEL } from '../../src/model/secrets.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { AttackCluster, IN_CLUSTER, tenantSpec } from '../tenancy/attack-harness.js';
import { GiteaApi } from './gitea-api.js';

// The attack suite for the SCM generators: hostile tenants point pull request and SCM provider generators at
// hosts they chose, at the controller's own loopback, at cloud metadata, and name Secrets that are not
// theirs. Each is refused with a condition and a Warning Event naming the rule; nothing is written, and the
// trap server standing on loopback never receives a request.

const unique = (name: string): string => `${name}-${randomBytes(3).toString('hex')}`;

describe('attack suite: tenant SCM generators cannot reach what they must not (real Gitea)', () => {
  const cluster = new AttackCluster(adminKubeConfig());
  const gitea = new GiteaApi();
  const org = unique('atk-scm');
  let trap: Server;
  let trapUrl = '';
  let trapRequests = 0;
  let platform = '';
  let tenant = '';
  let openPlatform = '';
  let openTenant = '';

  const token = (namespace: string, name: string, extra: Record<string, string> = {}, labels: Record<string, string> = {}) =>
    cluster.core.createNamespacedSecret({
      namespace,
      body: { metadata: { name, labels: { 'argocd.argoproj.io/secret-type': 'scm-creds', ...labels } }, stringData: { token: gitea.token, ...extra } },
    });
  const pullRequests = (api: string, secretName: string) => [
    { pullRequest: { gitea: { owner: org, repo: 'app', api, tokenRef: { secretName, key: 'token' } }, requeueAfterSeconds: 3600 } },
  ];
  const repositories = (api: string, secretName: string) => [
    { scmProvider: { gitea: { owner: org, api, tokenRef: { secretName, key: 'token' } }, requeueAfterSeconds: 3600 } },
  ];
  const spec = (name: string, generators: unknown[]) =>
    tenantSpec(name, { project: 'scmteam', generators, goTemplate: true, destination: { server: IN_CLUSTER, namespace: 'team-prs' } });
  const specOf = (name: string, generators: unknown[], param: string) => {
    const s = spec(name, generators) as { template: { metadata: { name: string } } };
    s.template.metadata.name = `${name}-{{ .${param} }}`;
    return s;
  };
  const refused = (title: string, name: () => string, ns: () => string, generators: () => unknown[], rule: RegExp): void => {
    it(title, async () => {
      await cluster.applicationSet(ns(), name(), specOf(name(), generators(), 'number'));
      const message = await cluster.assertRefused({ namespace: ns(), name: name(), rule }, 60_000);
      assert.match(message, rule);
      assert.equal(trapRequests, 0, 'the loopback trap received a request');
    });
  };

  before(async () => {
    trap = createServer((_req, res) => {
      trapRequests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    await gitea.createOrg(org);
    await gitea.createRepo(org, 'app');
    await gitea.createBranch(org, 'app', 'change');
    await gitea.commitFile(org, 'app', 'change', 'x.yaml', 'x: 1\n');
    await gitea.openPull(org, 'app', 'change', 'A change');

    // A platform that lists the API URLs tenants may name (the trap and metadata among them, so the address rules are what refuse them).
    platform = await cluster.namespace('atkscm-platform');
    tenant = await cluster.namespace('atkscm-tenant');
    await cluster.project(platform, 'scmteam', { sourceNamespaces: [tenant], sourceRepos: ['*'], destinations: [{ server: IN_CLUSTER, namespace: '*' }] });
    await token(platform, 'own-token', { project: 'scmteam' });
    await token(platform, 'other-token', { project: 'someone-else' });
    await token(platform, 'platform-token');
    await cluster.controller({
      namespace: platform,
      'applicationset-namespaces': [tenant],
      'allowed-scm-providers': [trapUrl, 'http://169.254.169.254', `http://localhost:${new URL(trapUrl).port}`, 'https://gitea.allowed.example'],
    });

    // A platform that lists none (Argo CD's default) and lets tenants reach loopback (local development), so Gitea is reachable.
    openPlatform = await cluster.namespace('atkscm-open');
    openTenant = await cluster.namespace('atkscm-opentenant');
    await cluster.project(openPlatform, 'scmteam', {
      sourceNamespaces: [openTenant],
      sourceRepos: ['*'],
      destinations: [{ server: IN_CLUSTER, namespace: '*' }],
    });
    await token(openPlatform, 'own-token', { project: 'scmteam' });
    await token(openPlatform, 'shared-token', {}, { [SHARED_CREDENTIALS_LABEL]: 'true' });
    await cluster.controller({ namespace: openPlatform, 'applicationset-namespaces': [openTenant], 'allow-local-repos': true });
  });
  after(async () => {
    await cluster.cleanUp();
    await new Promise((resolve) => trap.close(resolve));
  });

  it("lists with its own project's token (positive control)", async () => {
    await cluster.applicationSet(openTenant, 'own', specOf('own', pullRequests(gitea.url, 'own-token'), 'number'));
    await cluster.applicationSet(openTenant, 'ownrepos', specOf('ownrepos', repositories(gitea.url, 'own-token'), 'repository'));
    await cluster.assertApplications(openTenant, ['own-1', 'ownrepos-app'], 60_000);
  });

  refused(
    'an API host the platform did not list',
    () => 'unlisted',
    () => tenant,
    () => pullRequests('https://evil.example.com', 'own-token'),
    /API URL https:\/\/evil\.example\.com is not in --allowed-scm-providers/,
  );
  refused(
    "the controller's own loopback, even when listed",
    () => 'loopback',
    () => tenant,
    () => pullRequests(trapUrl, 'own-token'),
    /is refused: address 127\.0\.0\.1 is the controller itself \(loopback\)/,
  );
  refused(
    'localhost by name',
    () => 'localhost',
    () => tenant,
    () => repositories(`http://localhost:${new URL(trapUrl).port}`, 'own-token'),
    /host localhost is the controller itself \(loopback\)/,
  );
  refused(
    'the link-local cloud metadata address',
    () => 'metadata',
    () => tenant,
    () => pullRequests('http://169.254.169.254', 'own-token'),
    /address 169\.254\.169\.254 is link-local/,
  );
  refused(
    "another project's token",
    () => 'othertoken',
    () => tenant,
    () => pullRequests('https://gitea.allowed.example', 'other-token'),
    /Secret atkscm-platform-\w+\/other-token is scoped to another project/,
  );
  refused(
    "the platform's own (unshared) token",
    () => 'platformtoken',
    () => tenant,
    () => repositories('https://gitea.allowed.example', 'platform-token'),
    /Secret atkscm-platform-\w+\/platform-token is scoped to another project \(or not shared with tenants\)/,
  );
  refused(
    'a shared platform token sent to a host the tenant chose',
    () => 'sharedchosen',
    () => openTenant,
    () => pullRequests(gitea.url, 'shared-token'),
    /Secret atkscm-open-\w+\/shared-token is the platform's, and http:\/\/127\.0\.0\.1:\d+\/api\/v1 is neither the provider's public API nor in --allowed-scm-providers/,
  );
  refused(
    'a Secret that does not exist',
    () => 'nosecret',
    () => tenant,
    () => pullRequests('https://gitea.allowed.example', 'no-such-token'),
    /Secret atkscm-platform-\w+\/no-such-token is not among the SCM credential Secrets/,
  );
});
