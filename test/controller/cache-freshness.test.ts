import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { compareResourceVersions, StaleCacheError, withFreshCaches } from '../../src/controller/consistency/cache-freshness.js';
import { awaitChange } from '../../src/model/action.js';
import type { ReconcileContext } from '../../src/controller/reconcile/runner.js';
import type { Requirements, Watermarks } from '../../src/controller/consistency/watermarks.js';

const ctx = (): ReconcileContext => ({ signal: new AbortController().signal, log: pino({ level: 'silent' }), reconcileId: 'test' });
const watermarks = (required: Requirements): Watermarks => ({
  raise: () => Promise.resolve(),
  read: () => Promise.resolve(required),
  close: () => Promise.resolve(),
});

describe('cache freshness', () => {
  it('orders resourceVersions as integers, beyond 2^53, and refuses to order anything else', () => {
    assert.equal(compareResourceVersions('9', '10'), -1);
    assert.equal(compareResourceVersions('10', '10'), 0);
    assert.equal(compareResourceVersions('9007199254740993', '9007199254740992'), 1);
    assert.equal(compareResourceVersions('abc', '10'), undefined);
  });

  it('runs the reconcile only once the lagging cache has reached the event that enqueued the key', async () => {
    let applications = '100';
    const seenAt: string[] = [];
    const waits: number[] = [];
    const fresh = withFreshCaches(
      () => {
        seenAt.push(applications);
        return Promise.resolve(awaitChange());
      },
      {
        watermarks: watermarks({ applications: '120', applicationSets: '90' }),
        cacheVersions: { applications: () => applications, applicationSets: () => '95', secrets: () => undefined, projects: () => undefined },
        pollMs: 5,
        observeWait: (seconds) => waits.push(seconds),
      },
    );
    const running = fresh('argocd/a', ctx());
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(seenAt, [], 'not run on the old cache');
    applications = '119';
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(seenAt, []);
    applications = '130';
    await running;
    assert.deepEqual(seenAt, ['130']);
    assert.ok((waits[0] ?? 0) > 0.04, 'the wait is observed');
  });

  it('gives up after the timeout with a retryable error naming the cache, and never runs the reconcile', async () => {
    let ran = false;
    const fresh = withFreshCaches(
      () => {
        ran = true;
        return Promise.resolve(awaitChange());
      },
      {
        watermarks: watermarks({ secrets: '50' }),
        cacheVersions: { applications: () => '1', applicationSets: () => '1', secrets: () => '49', projects: () => '1' },
        timeoutMs: 40,
        pollMs: 5,
      },
    );
    await assert.rejects(
      fresh('argocd/a', ctx()),
      (error: unknown) => error instanceof StaleCacheError && /secrets cache .* resourceVersion 49 .* not reached 50/.test(error.message),
    );
    assert.equal(ran, false);
  });

  it('waits for the AppProjects cache when an AppProject change enqueued the key', async () => {
    const fresh = withFreshCaches(() => Promise.resolve(awaitChange()), {
      watermarks: watermarks({ projects: '7' }),
      cacheVersions: { applications: () => '9', applicationSets: () => '9', secrets: () => '9', projects: () => '6' },
      timeoutMs: 20,
      pollMs: 5,
    });
    await assert.rejects(fresh('argocd/a', ctx()), (error: unknown) => error instanceof StaleCacheError && /projects cache/.test(error.message));
  });

  it('runs at once when nothing enqueued the key with a cause (resync, requeue)', async () => {
    let ran = false;
    const fresh = withFreshCaches(
      () => {
        ran = true;
        return Promise.resolve(awaitChange());
      },
      {
        watermarks: watermarks({}),
        cacheVersions: { applications: () => undefined, applicationSets: () => undefined, secrets: () => undefined, projects: () => undefined },
        timeoutMs: 1,
      },
    );
    await fresh('argocd/a', ctx());
    assert.equal(ran, true);
  });
});
