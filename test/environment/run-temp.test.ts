import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRunTemp } from '../run-temp.js';

describe('createRunTemp', () => {
  const parent = mkdtempSync(join(tmpdir(), 'run-temp-parent-'));
  after(() => rmSync(parent, { recursive: true, force: true }));

  /** What a test process started with the run's environment makes with mkdtemp, as the tests do. */
  const childMakesTempDir = (env: Readonly<Record<string, string>>): string =>
    execFileSync(
      process.execPath,
      [
        '-e',
        "const { mkdtempSync } = require('node:fs'); const { join } = require('node:path'); process.stdout.write(mkdtempSync(join(require('node:os').tmpdir(), 'probe-')))",
      ],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
    );

  it("puts a child's temporary folders inside the run's folder and deletes them with it", () => {
    const run = createRunTemp(parent);
    const made = childMakesTempDir(run.env);
    assert.ok(made.startsWith(`${run.path}/probe-`), `the child made ${made}, outside ${run.path}`);
    assert.ok(existsSync(made));
    run.finish(false);
    assert.equal(existsSync(run.path), false);
    assert.deepEqual(readdirSync(parent), [], 'nothing of the run is left beside it');
  });

  it('keeps everything when the run is kept for inspection', () => {
    const run = createRunTemp(parent);
    const made = childMakesTempDir(run.env);
    run.finish(true);
    assert.ok(existsSync(made));
  });
});
