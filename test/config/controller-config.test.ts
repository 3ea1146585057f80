import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { ConfigError } from '../../src/config/option-table.js';
import { parseDurationMs, parseListenAddress } from '../../src/config/parsers.js';

const noFile = '/nonexistent/namespace';

describe('controller configuration', () => {
  it('has safe defaults: sync policy, in-memory queue, no dry run, argocd namespace', () => {
    const config = readControllerConfig({}, {}, noFile);
    assert.equal(config.policy, 'sync');
    assert.equal(config.enablePolicyOverride, true, 'no --policy: ApplicationSets choose their own, as in Argo CD');
    assert.equal(config.dryRun, false);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.namespace, 'argocd');
    assert.deepEqual(config.applicationSetNamespaces, []);
    assert.deepEqual(config.listenAddress, { host: '0.0.0.0', port: 8080 });
    assert.ok(Object.isFrozen(config));
  });

  it('takes a flag over its environment variable, and the environment over the default', () => {
    const env = { APPSET_POLICY: 'create-only', APPSET_CONCURRENT_RECONCILIATIONS: '7', APPSET_DRY_RUN: 'true' };
    const fromEnv = readControllerConfig({}, env, noFile);
    assert.equal(fromEnv.policy, 'create-only');
    assert.equal(fromEnv.concurrentReconciliations, 7);
    assert.equal(fromEnv.dryRun, true);
    const fromFlag = readControllerConfig({ policy: 'create-update', 'concurrent-reconciliations': '3' }, env, noFile);
    assert.equal(fromFlag.policy, 'create-update');
    assert.equal(fromFlag.concurrentReconciliations, 3);
  });

  it('lets an explicit --policy win over ApplicationSets unless the override is enabled explicitly', () => {
    assert.equal(readControllerConfig({ policy: 'create-only' }, {}, noFile).enablePolicyOverride, false);
    assert.equal(readControllerConfig({ policy: 'create-only', 'enable-policy-override': true }, {}, noFile).enablePolicyOverride, true);
    assert.equal(readControllerConfig({}, { APPSET_ENABLE_POLICY_OVERRIDE: 'false' }, noFile).enablePolicyOverride, false);
  });

  it('reads namespace globs from repeated flags or a comma-separated variable', () => {
    assert.deepEqual(readControllerConfig({ 'applicationset-namespaces': ['team-*', 'ops'] }, {}, noFile).applicationSetNamespaces, ['team-*', 'ops']);
    assert.deepEqual(readControllerConfig({}, { APPSET_APPLICATIONSET_NAMESPACES: 'team-*, ops,' }, noFile).applicationSetNamespaces, ['team-*', 'ops']);
  });

  it('finds its namespace in $POD_NAMESPACE, then the service account file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-'));
    writeFileSync(join(dir, 'namespace'), 'platform\n');
    assert.equal(readControllerConfig({}, {}, join(dir, 'namespace')).namespace, 'platform');
    assert.equal(readControllerConfig({}, { POD_NAMESPACE: 'from-pod' }, join(dir, 'namespace')).namespace, 'from-pod');
    assert.equal(readControllerConfig({ namespace: 'flag' }, { POD_NAMESPACE: 'from-pod' }, noFile).namespace, 'flag');
  });

  it('lists every invalid setting at once, naming flag and variable', () => {
    assert.throws(
      () => readControllerConfig({ policy: 'delete-all', 'max-delete-share': '2' }, { APPSET_REDIS_URL: 'http://user:secret@host' }, noFile),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 3);
        assert.match(error.message, /--policy \/ \$APPSET_POLICY: expected one of sync, create-only, create-update, create-delete, got "delete-all"/);
        assert.match(error.message, /--max-delete-share/);
        assert.match(error.message, /--redis-url .*a http: URL/);
        assert.doesNotMatch(error.message, /secret/, 'a Redis password must never be echoed');
        return true;
      },
    );
  });

  it('parses durations and listen addresses', () => {
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('30'), 30_000);
    assert.equal(parseDurationMs('5m'), 300_000);
    assert.equal(parseDurationMs('1.5h'), 5_400_000);
    assert.throws(() => parseDurationMs('5 minutes'), /expected a duration/);
    assert.deepEqual(parseListenAddress(':9090'), { host: '0.0.0.0', port: 9090 });
    assert.deepEqual(parseListenAddress('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
    assert.throws(() => parseListenAddress('localhost'), /host:port/);
  });
});
