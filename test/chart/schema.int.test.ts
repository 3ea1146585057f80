import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helm, templateArgs } from './helm.js';

/** Values values.schema.json must refuse, each with the words helm's error must contain. */
const BAD_VALUES: Array<{ set: string[]; error: RegExp }> = [
  { set: ['replicaCount=0'], error: /replicaCount/ },
  { set: ['controller.policy=delete-everything'], error: /policy/ },
  { set: ['controller.logLevel=loud'], error: /logLevel/ },
  { set: ['controller.maxDeleteShare=2'], error: /maxDeleteShare/ },
  { set: ['controller.resyncPeriod=often'], error: /resyncPeriod/ },
  { set: ['controller.concurrentReconciliations=0'], error: /concurrentReconciliations/ },
  { set: ['controller.namespace=Not_A_Namespace'], error: /namespace/ },
  { set: ['controler.dryRun=true'], error: /controler/ },
  { set: ['securityContext.readOnlyRootFilesystem=false'], error: /readOnlyRootFilesystem/ },
  { set: ['securityContext.allowPrivilegeEscalation=true'], error: /allowPrivilegeEscalation/ },
  { set: ['securityContext.runAsNonRoot=false'], error: /runAsNonRoot/ },
  { set: ['securityContext.capabilities.add={NET_ADMIN}'], error: /capabilities/ },
  { set: ['podSecurityContext.runAsNonRoot=false'], error: /runAsNonRoot/ },
  { set: ['redis.mode=cluster'], error: /mode/ },
  { set: ['redis.mode=external'], error: /url/ },
  { set: ['redis.mode=external', 'redis.url=redis://:hunter2@redis:6379'], error: /url/ },
  { set: ['redis.mode=external', 'redis.url=http://redis:6379'], error: /url/ },
  { set: ['redis.mode=sentinel', 'redis.sentinelMaster=m'], error: /sentinels/ },
  { set: ['redis.mode=sentinel', 'redis.sentinels={sentinel-without-port}', 'redis.sentinelMaster=m'], error: /sentinels/ },
  { set: ['redis.mode=none'], error: /replicaCount/ },
  { set: ['image.digest=latest'], error: /digest/ },
  { set: ['gitCache.mountPath=relative/path'], error: /mountPath/ },
  { set: ['topologySpread.whenUnsatisfiable=Sometimes'], error: /whenUnsatisfiable/ },
  { set: ['webhook.secrets.github=s3cret'], error: /github/ },
];

describe('chart: values.schema.json refuses bad values', () => {
  for (const { set, error } of BAD_VALUES) {
    it(`refuses ${set.join(' ')}`, async () => {
      const result = await helm(templateArgs({ set }));
      assert.notEqual(result.code, 0, `helm template accepted ${set.join(' ')}`);
      assert.match(result.stderr, error);
    });
  }

  it('accepts the defaults (so the refusals above are about the bad value)', async () => {
    const result = await helm(templateArgs({}));
    assert.equal(result.code, 0, result.stderr);
  });
});
