import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { awaitChange, requeue, TerminalError, type Action } from '../../src/model/action.js';
import { ReconcileFailure } from '../../src/controller/reconcile/failure.js';
import { createReconcileHandler, type ReconcileFunction } from '../../src/controller/reconcile/runner.js';
import { MemoryWorkQueue } from '../../src/queue/memory-queue.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

describe('reconcile runner', () => {
  let queue: MemoryWorkQueue;
  afterEach(() => queue.close(1_000));

  /** What the reconciler throws for a refusal: a terminal ReconcileFailure around the TerminalError. */
  const refused = (message: string, options: { requeueAfterMs?: number } = {}): Promise<never> =>
    Promise.reject(new ReconcileFailure({ reason: 'ApplicationValidationError', parametersGenerated: false }, new TerminalError(message, options), undefined));

  function run(reconcile: ReconcileFunction, onTerminal: (key: string, error: ReconcileFailure) => void = () => undefined) {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
    const outcomes: string[] = [];
    queue = new MemoryWorkQueue({ concurrency: 2, backoff: { baseMs: 1, maxMs: 20 } });
    queue.process(
      createReconcileHandler({
        queue,
        reconcile,
        report: (key, failure) => Promise.resolve(failure.terminal ? onTerminal(key, failure) : undefined),
        log: pino({ level: 'debug' }, sink),
        observe: (_key, _seconds, outcome) => outcomes.push(outcome),
      }),
    );
    return { lines, outcomes };
  }

  it('requeues after the delay an Action asks for, and leaves awaitChange to events', async () => {
    const runs = new Map<string, number>();
    run((key) => {
      runs.set(key, (runs.get(key) ?? 0) + 1);
      const action: Action = key === 'ns/poll' && (runs.get(key) ?? 0) < 3 ? requeue(5) : awaitChange();
      return Promise.resolve(action);
    });
    await queue.add('ns/poll');
    await queue.add('ns/quiet');
    await waitFor(() => runs.get('ns/poll') === 3, { what: 'three polls', timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(runs.get('ns/poll'), 3);
    assert.equal(runs.get('ns/quiet'), 1);
  });

  it('reconsiders a refusal at the requeue interval the TerminalError carries, without backoff retries', async () => {
    let runs = 0;
    const reported: string[] = [];
    run(
      () => {
        runs++;
        return refused('refusing to delete 3 of 3 Applications', { requeueAfterMs: 20 });
      },
      (key) => reported.push(key),
    );
    await queue.add('team-a/guarded');
    await waitFor(() => runs >= 3, { what: 'the refusal to be reconsidered twice', timeoutMs: 5_000 });
    assert.equal(reported.length >= 2, true, 'each refusal is reported');
    assert.equal(queue.counters().retries, 0, 'reconsidered by requeue, not by backoff');
  });

  it('logs a refusal as one warning with its reason and no stack: it is expected, not a crash', async () => {
    const { lines } = run(() => refused('AppProject team-a does not list namespace team-b in spec.sourceNamespaces'));
    await queue.add('team-b/apps');
    await waitFor(() => lines.some((l) => l.level === 40), { what: 'the refusal warning', timeoutMs: 10_000 });
    const warnings = lines.filter((l) => l.level === 40);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.reason, 'AppProject team-a does not list namespace team-b in spec.sourceNamespaces');
    assert.equal(warnings[0]?.appset, 'team-b/apps');
    assert.doesNotMatch(JSON.stringify(warnings[0]), /stack|\n\s+at /);
  });

  it('reports a TerminalError once and does not retry it', async () => {
    let runs = 0;
    const reported: string[] = [];
    const { outcomes } = run(
      () => {
        runs++;
        return refused('spec.generators[0]: unknown generator "foo"');
      },
      (key, error) => reported.push(`${key}: ${error.message}`),
    );
    await queue.add('team-a/broken');
    await waitFor(() => reported.length === 1, { what: 'the report', timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(runs, 1);
    assert.deepEqual(reported, ['team-a/broken: spec.generators[0]: unknown generator "foo"']);
    assert.deepEqual(outcomes, ['terminal']);
  });

  it('retries any other error with backoff until it succeeds', async () => {
    let runs = 0;
    const { outcomes } = run(() => (++runs < 4 ? Promise.reject(new Error('connection reset')) : Promise.resolve(awaitChange())));
    await queue.add('team-a/flaky');
    await waitFor(() => runs === 4, { what: 'the fourth run', timeoutMs: 10_000 });
    await waitFor(() => outcomes.length === 4, { what: 'four outcomes', timeoutMs: 10_000 });
    assert.deepEqual(outcomes, ['error', 'error', 'error', 'success']);
  });

  it('puts the ApplicationSet key and a reconcile id on every log line', async () => {
    const { lines } = run((_key, ctx) => {
      ctx.log.info('generating');
      return Promise.reject(new Error('boom'));
    });
    await queue.add('team-a/logged');
    await waitFor(() => lines.length >= 2, { what: 'log lines', timeoutMs: 10_000 });
    for (const line of lines) {
      assert.equal(line.appset, 'team-a/logged');
      assert.match(String(line.reconcileId), /^[0-9a-f]{12}$/);
    }
  });
});
