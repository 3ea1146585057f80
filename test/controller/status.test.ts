import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conditionsDiffer, conditionsFor, mergeConditions, Reason } from '../../src/controller/status/conditions.js';
import { pino } from 'pino';
import type { ApplicationSetObject } from '../../src/controller/reconcile/applicationset.js';
import { reportStatus, type Reporter } from '../../src/controller/status/report.js';
import { resourceStatus } from '../../src/controller/status/resource-status.js';
import { KubeApiError } from '../../src/kube/transport/api-errors.js';
import { appliedLive, desired, liveFrom } from './application-fixtures.js';

const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-02T00:00:00Z';

describe('status conditions', () => {
  it('writes Argo CD 3.x conditions on success, sorted by type', () => {
    const conditions = mergeConditions(undefined, conditionsFor({ kind: 'success' }), T1);
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason]),
      [
        ['ErrorOccurred', 'False', 'ApplicationSetUpToDate'],
        ['ParametersGenerated', 'True', 'ParametersGenerated'],
        ['ResourcesUpToDate', 'True', 'ApplicationSetUpToDate'],
      ],
    );
  });

  it('names the error in ErrorOccurred and ResourcesUpToDate, and in ParametersGenerated when generation failed', () => {
    const message = 'git generator: revision "nope" not found in https://git.example/apps.git';
    const conditions = conditionsFor({ kind: 'error', reason: Reason.ParamsGenerationError, message, parametersGenerated: false });
    assert.deepEqual(conditions, [
      { type: 'ErrorOccurred', status: 'True', reason: 'ApplicationGenerationFromParamsError', message },
      { type: 'ParametersGenerated', status: 'False', reason: 'ErrorOccurred', message },
      { type: 'ResourcesUpToDate', status: 'False', reason: 'ErrorOccurred', message },
    ]);
  });

  it('keeps lastTransitionTime while a condition is unchanged and moves it when it changes', () => {
    const first = mergeConditions(undefined, conditionsFor({ kind: 'success' }), T1);
    const again = mergeConditions(first, conditionsFor({ kind: 'success' }), T2);
    assert.ok(again.every((c) => c.lastTransitionTime === T1));
    assert.equal(conditionsDiffer(first, again), false, 'an unchanged status is not written');
    const failed = mergeConditions(again, conditionsFor({ kind: 'error', reason: Reason.ValidationError, message: 'bad', parametersGenerated: true }), T2);
    assert.equal(failed.find((c) => c.type === 'ErrorOccurred')?.lastTransitionTime, T2);
    assert.equal(failed.find((c) => c.type === 'ParametersGenerated')?.lastTransitionTime, T1, 'parameters were still generated');
    assert.equal(conditionsDiffer(again, failed), true);
  });

  it('keeps conditions of types it does not evaluate', () => {
    const rollout = { type: 'RolloutProgressing', status: 'False' as const, reason: 'ApplicationSetRolloutComplete', message: 'done', lastTransitionTime: T1 };
    assert.ok(mergeConditions([rollout], conditionsFor({ kind: 'success' }), T2).some((c) => c.type === 'RolloutProgressing'));
  });
});

describe('status.resources', () => {
  it('lists owned Applications by name with sync and health, capped, with the full count', () => {
    const apps = ['c', 'a', 'b'].map((n) =>
      liveFrom(appliedLive(desired(n)), (l) => Object.assign(l, { status: { sync: { status: 'Synced' }, health: { status: 'Healthy' } } })),
    );
    const { resources, resourcesCount } = resourceStatus(apps, 2);
    assert.equal(resourcesCount, 3);
    assert.deepEqual(
      resources.map((r) => r.name),
      ['a', 'b'],
    );
    assert.deepEqual(resources[0], {
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Application',
      name: 'a',
      namespace: 'team-a',
      status: 'Synced',
      health: { status: 'Healthy' },
    });
    assert.equal(resourceStatus(apps, 0).resources.length, 3);
  });
});

describe('reportStatus', () => {
  /** What the API server hands back: stored custom resources come with alphabetically sorted keys. */
  const asServerReturns = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value, (_key, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
      ),
    );
  const apps = ['a', 'b'].map((n) =>
    liveFrom(appliedLive(desired(n)), (l) => Object.assign(l, { status: { sync: { status: 'Synced' }, health: { status: 'Healthy' } } })),
  );
  const reporterWriting = (writes: unknown[]): Reporter => ({
    status: { write: (_target, status) => Promise.resolve(void writes.push(status)).then(() => undefined) },
    events: { record: () => Promise.resolve() },
    now: () => new Date(T2),
    maxResourcesStatus: 0,
  });
  const appsetWithStatus = (status: unknown): ApplicationSetObject =>
    ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'guestbook', namespace: 'team-a', uid: 'uid', resourceVersion: '7' },
      spec: { generators: [], template: { metadata: {}, spec: {} } },
      status,
    }) as unknown as ApplicationSetObject;
  const stored = asServerReturns({ conditions: mergeConditions(undefined, conditionsFor({ kind: 'success' }), T1), ...resourceStatus(apps, 0) });

  it('writes nothing when the stored status (keys sorted by the server) already says the same', async () => {
    const writes: unknown[] = [];
    await reportStatus(reporterWriting(writes), appsetWithStatus(stored), { kind: 'success' }, apps, pino({ enabled: false }));
    assert.deepEqual(writes, [], 'an idle resync costs no status write');
  });

  it('writes when an owned Application changed', async () => {
    const writes: unknown[] = [];
    await reportStatus(reporterWriting(writes), appsetWithStatus(stored), { kind: 'success' }, apps.slice(0, 1), pino({ enabled: false }));
    assert.equal(writes.length, 1);
  });

  it('takes a 409 or 404 as "the ApplicationSet changed or is gone" and passes other failures on', async () => {
    const failing = (status: number): Reporter => ({
      ...reporterWriting([]),
      status: { write: () => Promise.reject(new KubeApiError(status, undefined, `HTTP ${status}`)) },
    });
    for (const status of [409, 404]) await reportStatus(failing(status), appsetWithStatus(undefined), { kind: 'success' }, apps, pino({ enabled: false }));
    await assert.rejects(reportStatus(failing(403), appsetWithStatus(undefined), { kind: 'success' }, apps, pino({ enabled: false })), /HTTP 403/);
  });
});
