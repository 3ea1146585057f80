import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDestinationPermitted, isSourceNamespacePermitted, isSourcePermitted } from '../../src/tenancy/project.js';

describe('AppProject sourceRepos', () => {
  const table: Array<[string[], string, boolean, string]> = [
    [['*'], 'https://github.com/any/thing.git', true, 'wildcard'],
    [['https://github.com/team-a/*'], 'https://github.com/team-a/apps.git', true, 'glob, .git ignored'],
    [['https://github.com/team-a/*'], 'https://GITHUB.com/Team-A/apps', true, 'case-insensitive'],
    [['https://github.com/team-a/*'], 'https://github.com/team-a/apps/sub', false, '* stays within a segment'],
    [['https://github.com/team-a/*'], 'https://github.com/team-b/apps', false, 'another team'],
    [['git@github.com:team-a/*'], 'ssh://git@github.com/team-a/apps.git', true, 'ssh forms normalised'],
    [['!https://github.com/secret/*', '*'], 'https://github.com/secret/keys', false, 'negation wins'],
    [['!https://github.com/secret/*', '*'], 'https://github.com/public/site', true, 'negation with wildcard'],
    [['!https://github.com/secret/*'], 'https://github.com/public/site', true, 'negations alone allow the rest, as in Argo CD'],
    [[], 'https://github.com/any/thing', false, 'nothing listed'],
  ];
  for (const [sourceRepos, url, expected, why] of table) {
    it(`${why}: ${url} is ${expected ? 'allowed' : 'refused'}`, () => assert.equal(isSourcePermitted({ sourceRepos }, url), expected));
  }
});

describe('AppProject destinations', () => {
  const project = {
    destinations: [
      { server: 'https://kubernetes.default.svc', namespace: 'team-a-*' },
      { name: 'prod-*', namespace: 'team-a' },
    ],
  };
  const table: Array<[object, boolean, string]> = [
    [{ server: 'https://kubernetes.default.svc', namespace: 'team-a-dev' }, true, 'server and namespace glob'],
    [{ server: 'https://kubernetes.default.svc', namespace: 'kube-system' }, false, 'namespace outside'],
    [{ server: 'https://other.example', namespace: 'team-a-dev' }, false, 'server outside'],
    [{ name: 'prod-eu', namespace: 'team-a' }, true, 'cluster name glob'],
    [{ name: 'prod-eu', server: 'https://prod-eu.example', namespace: 'team-a' }, true, 'name matches, server resolved'],
    [{ name: 'dev', namespace: 'team-a' }, false, 'name outside'],
  ];
  for (const [destination, expected, why] of table) {
    it(`${why}: ${JSON.stringify(destination)} is ${expected ? 'allowed' : 'refused'}`, () =>
      assert.equal(isDestinationPermitted(project, destination), expected));
  }

  it("applies negated entries as Argo CD's tests do", () => {
    const denyKubeSystem = {
      destinations: [
        { server: '*', namespace: '*' },
        { server: '*', namespace: '!kube-system' },
      ],
    };
    assert.equal(isDestinationPermitted(denyKubeSystem, { server: 'https://kubernetes.default.svc', namespace: 'kube-system' }), false);
    assert.equal(isDestinationPermitted(denyKubeSystem, { server: 'https://kubernetes.default.svc', namespace: 'apps' }), true);
    const denyCluster = { destinations: [{ server: '!https://my-cluster', namespace: 'default' }] };
    assert.equal(isDestinationPermitted(denyCluster, { server: 'https://kubernetes.default.svc', namespace: 'default' }), true);
    assert.equal(isDestinationPermitted(denyCluster, { server: 'https://my-cluster', namespace: 'default' }), false);
  });
});

describe('AppProject sourceNamespaces', () => {
  it('lets only listed namespaces use the project', () => {
    assert.ok(isSourceNamespacePermitted({ sourceNamespaces: ['team-a', 'team-b-*'] }, 'team-b-dev'));
    assert.ok(!isSourceNamespacePermitted({ sourceNamespaces: ['team-a'] }, 'team-c'));
    assert.ok(!isSourceNamespacePermitted({}, 'team-a'));
  });
});
