import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BinaryBuildError, buildParts, reported } from '../../src/environment/local/binaries.js';

describe('buildParts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-parts-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const script = (name: string, body: string): string => {
    const path = join(dir, name);
    writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
    return path;
  };

  it('reads the whole report even when the script exits before its output is read', async () => {
    // The script itself exits at once; a subshell it leaves behind writes the report 300 ms later. Reading the
    // output only until the process exited (the bug) gave an empty report, as once under a loaded CI run.
    const late = script('late.sh', '(sleep 0.3; echo ETCD_BIN=/cache/etcd/etcd; echo KUBE_APISERVER_BIN=/cache/kube/kube-apiserver) &\nexit 0');
    const values = await buildParts(['etcd', 'kube'], late);
    assert.equal(reported(values, 'ETCD_BIN'), '/cache/etcd/etcd');
    assert.equal(reported(values, 'KUBE_APISERVER_BIN'), '/cache/kube/kube-apiserver');
  });

  it('fails loudly when the build fails, and when a part is not reported', async () => {
    await assert.rejects(buildParts(['etcd'], script('fail.sh', 'echo ETCD_BIN=/x; exit 3')), (error: unknown) => {
      assert.ok(error instanceof BinaryBuildError);
      assert.match(error.message, /building etcd failed \(exit code 3;/);
      return true;
    });
    const values = await buildParts(['etcd'], script('silent.sh', 'exit 0'));
    assert.throws(() => reported(values, 'ETCD_BIN'), /did not report ETCD_BIN/);
  });
});
