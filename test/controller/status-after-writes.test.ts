import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { ApplicationSetObject } from '../../src/controller/reconcile/applicationset.js';
import { conditionsFor, mergeConditions, Reason } from '../../src/controller/status/conditions.js';
import { reportStatus, type Reporter } from '../../src/controller/status/report.js';
import { StatusAfterWrites } from '../../src/controller/status/status-after-writes.js';
import type { ApplicationSetStatus, StatusTarget } from '../../src/controller/status/status-writer.js';
import { WritePool } from '../../src/controller/write/write-pool.js';
import { KubeApiError } from '../../src/kube/transport/api-errors.js';

const log = pino({ enabled: false });

function appset(name: string, resourceVersion = '1'): ApplicationSetObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, resourceVersion },
    spec: { generators: [], template: { metadata: {}, spec: {} } },
  } as unknown as ApplicationSetObject;
}

const status = (health: string): ApplicationSetStatus => ({
  resourcesCount: 1,
  resources: [{ group: 'argoproj.io', version: 'v1alpha1', kind: 'Application', name: 'a', namespace: 'team-a', health: { status: health } }],
});

/** A status writer that records what it was asked to write, failing with `fail(target)` when that gives an error. */
function recordingWriter(fail: (target: StatusTarget) => Error | undefined = () => undefined) {
  const written: Array<{ name: string; resourceVersion: string; health: string | undefined }> = [];
  return {
    written,
    write: (target: StatusTarget, s: ApplicationSetStatus) => {
      const error = fail(target);
      if (error) return Promise.reject(error);
      written.push({ name: target.name, resourceVersion: target.resourceVersion, health: s.resources?.[0]?.health?.status });
      return Promise.resolve(undefined);
    },
  };
}

/** A write pool kept busy by one held write until `release` is called. */
function busyPool() {
  const pool = new WritePool(4);
  let release!: () => void;
  const done = pool.run([() => new Promise<void>((resolve) => (release = resolve))]);
  return { pool, release: async () => (release(), await done, await tick()) };
}

describe('StatusAfterWrites', () => {
  it('writes at once, and the caller waits for it and sees its failure, while no Application write is busy', async () => {
    const writer = recordingWriter((target) => (target.name === 'broken' ? new KubeApiError(500, undefined, 'HTTP 500') : undefined));
    const statuses = new StatusAfterWrites({ writer, activity: new WritePool(4), onLost: () => assert.fail('nothing waited') });
    await statuses.write(appset('guestbook'), status('Healthy'), log);
    assert.deepEqual(writer.written, [{ name: 'guestbook', resourceVersion: '1', health: 'Healthy' }]);
    await assert.rejects(statuses.write(appset('broken'), status('Healthy'), log), /HTTP 500/);
  });

  it('leaves the status waiting while other writes are busy, and writes it once they are done', async () => {
    const writer = recordingWriter();
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({ writer, activity: pool, onLost: () => assert.fail('nothing is lost') });
    await statuses.write(appset('guestbook'), status('Healthy'), log);
    assert.deepEqual(writer.written, [], 'the reconcile ends before its status is written');
    assert.equal(statuses.waitingCount, 1);
    await release();
    assert.deepEqual(writer.written, [{ name: 'guestbook', resourceVersion: '1', health: 'Healthy' }]);
    assert.equal(statuses.waitingCount, 0);
  });

  it('writes only the newest of several statuses of one ApplicationSet, and each of the others', async () => {
    const writer = recordingWriter();
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({ writer, activity: pool, onLost: () => assert.fail('nothing is lost') });
    await statuses.write(appset('guestbook', '1'), status('Progressing'), log);
    await statuses.write(appset('other', '4'), status('Healthy'), log);
    await statuses.write(appset('guestbook', '2'), status('Healthy'), log);
    await release();
    assert.deepEqual(
      writer.written.sort((a, b) => a.name.localeCompare(b.name)),
      [
        { name: 'guestbook', resourceVersion: '2', health: 'Healthy' },
        { name: 'other', resourceVersion: '4', health: 'Healthy' },
      ],
    );
  });

  it('does not wait longer than its bound under writes that never stop', async () => {
    const writer = recordingWriter();
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({ writer, activity: pool, onLost: () => assert.fail('nothing is lost'), maxDelayMs: 20 });
    await statuses.write(appset('guestbook'), status('Healthy'), log);
    await sleep(60);
    assert.equal(pool.busy, true);
    assert.deepEqual(writer.written, [{ name: 'guestbook', resourceVersion: '1', health: 'Healthy' }]);
    await release();
    assert.equal(writer.written.length, 1, 'written once');
  });

  it('drops a waiting status the ApplicationSet outran (409) or that is gone (404), and hands other failures to onLost', async () => {
    const failures: Record<string, number> = { changed: 409, gone: 404, refused: 403 };
    const writer = recordingWriter((target) => new KubeApiError(failures[target.name] ?? 500, undefined, `HTTP ${failures[target.name]}`));
    const lost: Array<{ name: string; error: string }> = [];
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({
      writer,
      activity: pool,
      onLost: (lostAppset, error) => lost.push({ name: lostAppset.metadata.name, error: (error as Error).message }),
    });
    for (const name of Object.keys(failures)) await statuses.write(appset(name), status('Healthy'), log);
    await release();
    assert.deepEqual(lost, [{ name: 'refused', error: 'HTTP 403' }]);
  });

  it('writes what waits when told to flush (the replica stops)', async () => {
    const writer = recordingWriter();
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({ writer, activity: pool, onLost: () => assert.fail('nothing is lost') });
    await statuses.write(appset('guestbook'), status('Healthy'), log);
    await statuses.flush();
    assert.deepEqual(writer.written, [{ name: 'guestbook', resourceVersion: '1', health: 'Healthy' }]);
    await release();
    assert.equal(writer.written.length, 1, 'not written again once the writes are done');
  });

  it('drops a waiting status when a later report of the same ApplicationSet finds the stored status already right', async () => {
    const writer = recordingWriter();
    const { pool, release } = busyPool();
    const statuses = new StatusAfterWrites({ writer, activity: pool, onLost: () => assert.fail('nothing is lost') });
    const failed = { kind: 'error', reason: Reason.CreateApplicationError, message: 'boom', parametersGenerated: true } as const;
    // Stored: the failure of an earlier reconcile. A success comes next and waits; then the same failure again.
    const stored = { ...appset('guestbook'), status: { conditions: mergeConditions(undefined, conditionsFor(failed), '2026-01-01T00:00:00Z') } };
    const reporter: Reporter = {
      status: writer,
      events: { record: () => Promise.resolve() },
      now: () => new Date(),
      maxResourcesStatus: 0,
      closingStatus: statuses,
    };
    await reportStatus(reporter, stored, { kind: 'success' }, [], log, 'keep', 'after-writes');
    assert.equal(statuses.waitingCount, 1);
    await reportStatus(reporter, stored, failed, undefined, log);
    assert.deepEqual(writer.written, [], 'the failure was already stored: nothing to write');
    await release();
    assert.deepEqual(writer.written, [], 'and the success that waited is not written over it');
  });
});
