import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { controllerVerdicts, runDiff, tempFile, twoCommitRepo } from './diff-harness.js';
import { CASES, PROJECTS } from './diff-refusal-cases.js';
import { Reason } from '../../src/controller/status/conditions.js';

/** Condition reasons a reconcile writes that are never a refusal, and why: diff cannot show them as one. */
const NEVER_REFUSALS: Record<string, string> = {
  [Reason.ErrorOccurred]: 'an unexpected error outside every stage, retried',
  [Reason.CreateApplicationError]: 'the API server failed a create: a write failure, retried',
};

/** Every condition reason the reconcile stages write (src/controller/reconcile/), as their values. */
function reasonsWritten(): Set<string> {
  const dir = join(import.meta.dirname, '..', '..', '..', 'src', 'controller', 'reconcile');
  const names = readdirSync(dir).flatMap((file) =>
    [...readFileSync(join(dir, file), 'utf8').matchAll(/\bReason\.(\w+)/g)].map((m) => m[1] as keyof typeof Reason),
  );
  return new Set(names.map((name) => Reason[name]));
}

describe('appset diff reports every refusal exactly as the controller’s condition does', () => {
  const projects = tempFile('projects.yaml', PROJECTS);
  const refusedWith = new Set<string>();
  for (const c of CASES) {
    it(c.rule, async () => {
      const controller = (await controllerVerdicts(c.base, c.head, PROJECTS, c.settings)).get(c.key);
      assert.ok(controller && controller !== 'ok', `the controller accepts the case "${c.rule}"; the test must make it refuse`);
      const repo = await twoCommitRepo(c.base, c.head);
      const flags = [
        ...(c.settings?.perApplicationSet ? ['--max-applications-per-applicationset', String(c.settings.perApplicationSet)] : []),
        ...(c.settings?.perNamespace ? ['--max-applications-per-namespace', String(c.settings.perNamespace)] : []),
        ...(c.settings?.progressiveSyncs ? ['--enable-progressive-syncs'] : []),
      ];
      const { code, report, err } = await runDiff([
        '--repo',
        `https://git.example/apps.git=${repo}`,
        '--base',
        'base',
        '--head',
        'HEAD',
        '--projects',
        projects,
        '-o',
        'json',
        ...flags,
        join(repo, 'appsets.yaml'),
      ]);
      assert.equal(code, 2, err);
      const set = report?.applicationSets.find((s) => `${s.namespace}/${s.name}` === c.key);
      // A terminal failure waits for a change (refused); any other is retried (failed): diff says which, as the controller does.
      assert.deepEqual(set?.verdict, { result: controller.terminal ? 'refused' : 'failed', reason: controller.reason, message: controller.message });
      assert.equal(controller.terminal, (c.result ?? 'refused') === 'refused', 'the case is the kind of failure it is meant to be');
      if (controller.terminal) refusedWith.add(controller.reason);
    });
  }

  it('every condition reason a reconcile writes is shown refused by some case, or is never a refusal', () => {
    const missing = [...reasonsWritten()].filter((reason) => !refusedWith.has(reason) && !Object.hasOwn(NEVER_REFUSALS, reason));
    assert.deepEqual(missing, [], 'a reason the controller writes with no parity case refusing with it');
  });
});
