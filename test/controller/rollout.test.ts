import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxUpdateOf, RolloutMessage, type ApplicationRolloutStatus } from '../../src/controller/rollout/application-status.js';
import { readRollingSync, type RollingSync } from '../../src/controller/rollout/rolling-sync.js';
import { planRollout } from '../../src/controller/rollout/rollout.js';
import { rolloutCondition } from '../../src/controller/rollout/rollout-condition.js';
import { assignSteps } from '../../src/controller/rollout/steps.js';
import { ROLLING_SYNC_REASON, syncOperation, withoutAutoSync } from '../../src/controller/rollout/sync-operation.js';
import { TerminalError } from '../../src/model/action.js';
import type { Application } from '../../src/model/objects.js';

const NOW = '2026-12-01T00:00:00Z';
const EARLIER = '2026-11-30T00:00:00Z';

type Live = { sync?: string; health?: string; phase?: string; revision?: string; operation?: unknown };

/** A generated Application `name` with an `env` label and automated sync with pruning. */
function generated(
  name: string,
  env: string | undefined,
  syncPolicy: Record<string, unknown> = { automated: { prune: true }, syncOptions: ['CreateNamespace=true'] },
): Application {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd', ...(env ? { labels: { env } } : {}) },
    spec: { project: 'default', syncPolicy },
  };
}

/** The live Application as Argo CD's application controller left it. */
function live(app: Application, state: Live): Application {
  return {
    ...app,
    ...(state.operation ? { operation: state.operation } : {}),
    status: {
      sync: { ...(state.sync ? { status: state.sync } : {}), ...(state.revision ? { revision: state.revision } : {}) },
      health: state.health ? { status: state.health } : {},
      ...(state.phase ? { operationState: { phase: state.phase } } : {}),
    },
  };
}

function entry(
  application: string,
  status: string,
  step: string,
  message: string = RolloutMessage.noStatus,
  targetRevisions = ['r1'],
): ApplicationRolloutStatus {
  return { application, status, step, message, lastTransitionTime: EARLIER, targetRevisions };
}

const threeSteps: RollingSync = {
  steps: [
    { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] },
    { matchExpressions: [{ key: 'env', operator: 'In', values: ['qa'] }], maxUpdate: 1 },
    { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }], maxUpdate: '50%' },
  ],
};

const apps = [generated('dev-1', 'dev'), generated('qa-1', 'qa'), generated('qa-2', 'qa'), generated('prod-1', 'prod'), generated('prod-2', 'prod')];
const byName = (statuses: readonly ApplicationRolloutStatus[]) => Object.fromEntries(statuses.map((s) => [s.application, `${s.status}@${s.step}`]));

describe('RollingSync (unit: Argo CD v3.2.6 progressive sync semantics)', () => {
  it('reads the strategy: none for AllAtOnce or no rollingSync block, and names the field of a bad step', () => {
    assert.equal(readRollingSync(undefined), undefined);
    assert.equal(readRollingSync({ type: 'AllAtOnce' }), undefined);
    assert.equal(readRollingSync({ type: 'RollingSync' }), undefined, 'Argo CD: RollingSync without its block is no rollout');
    assert.deepEqual(readRollingSync({ type: 'RollingSync', rollingSync: {} }), { steps: [] });
    assert.deepEqual(
      readRollingSync({
        type: 'RollingSync',
        rollingSync: { steps: [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }], maxUpdate: '25%' }] },
      }),
      {
        steps: [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }], maxUpdate: '25%' }],
      },
    );
    assert.throws(
      () => readRollingSync({ type: 'RollingSync', rollingSync: { steps: [{}, { matchExpressions: [{ key: 'env', operator: 'Exists' }] }] } }),
      (error: unknown) =>
        error instanceof TerminalError &&
        /spec\.strategy\.rollingSync\.steps\[1\]\.matchExpressions\[0\]\.operator: "Exists" is not supported/.test(error.message),
    );
    assert.throws(() => readRollingSync({ type: 'RollingSync', rollingSync: { steps: [{ maxUpdate: 1.5 }] } }), /steps\[0\]\.maxUpdate/);
    assert.throws(
      () => readRollingSync({ type: 'RollingSync', deletionOrder: 'Reverse', rollingSync: { steps: [] } }),
      /deletionOrder: Reverse is not supported/,
    );
  });

  it('assigns each Application to the first step whose expressions all hold; a missing label fails In and passes NotIn', () => {
    const steps = assignSteps(
      [
        { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod', 'qa'] }] },
        { matchExpressions: [{ key: 'env', operator: 'In', values: ['qa'] }] },
        { matchExpressions: [] },
      ],
      [{ name: 'dev', labels: { env: 'dev' } }, { name: 'bare' }, { name: 'qa', labels: { env: 'qa' } }, { name: 'prod', labels: { env: 'prod' } }],
    );
    assert.deepEqual(steps.byStep, [['dev', 'bare'], ['qa'], ['dev', 'bare', 'qa', 'prod']]);
    assert.deepEqual(Object.fromEntries(steps.stepOf), { dev: 0, bare: 0, qa: 1, prod: 2 });
  });

  it('maxUpdate: counts as given, percentages round down but never below one (except 0%), a bad string counts as one', () => {
    assert.equal(maxUpdateOf(undefined, 10), undefined);
    assert.equal(maxUpdateOf(0, 10), 0);
    assert.equal(maxUpdateOf(3, 10), 3);
    assert.equal(maxUpdateOf('25%', 10), 2);
    assert.equal(maxUpdateOf('10%', 3), 1, 'floor(0.3) is raised to one');
    assert.equal(maxUpdateOf('0%', 10), 0);
    assert.equal(maxUpdateOf('3', 10), 1, 'IntOrString scaling refuses a string without %, Argo CD then allows one');
  });

  it('first reconcile after the Applications appear: all Waiting, the first step Pending and synced, automated sync removed everywhere', () => {
    const owned = apps.map((app) => live(app, { sync: 'OutOfSync', health: 'Missing', revision: 'r1' }));
    const plan = planRollout({ strategy: threeSteps, previous: [], desired: apps, owned, now: NOW });
    assert.deepEqual(byName(plan.statuses), { 'dev-1': 'Pending@1', 'prod-1': 'Waiting@3', 'prod-2': 'Waiting@3', 'qa-1': 'Waiting@2', 'qa-2': 'Waiting@2' });
    assert.deepEqual(
      plan.statuses.map((s) => s.application),
      ['dev-1', 'prod-1', 'prod-2', 'qa-1', 'qa-2'],
      'sorted by name, as Argo CD stores them',
    );
    assert.equal(plan.statuses.find((s) => s.application === 'dev-1')?.message, RolloutMessage.movedToPending);
    assert.equal(plan.statuses.find((s) => s.application === 'qa-1')?.message, RolloutMessage.noStatus);
    assert.deepEqual(plan.statuses.find((s) => s.application === 'qa-1')?.targetRevisions, ['r1']);
    assert.equal(plan.statusChanged, true);
    assert.deepEqual(
      plan.syncs.map((s) => s.name),
      ['dev-1'],
    );
    assert.deepEqual(plan.syncs[0]?.operation, {
      sync: { prune: true, syncOptions: ['CreateNamespace=true'] },
      initiatedBy: { username: 'applicationset-controller', automated: true },
      info: [{ name: 'Reason', value: ROLLING_SYNC_REASON }],
      retry: { limit: 5 },
    });
    for (const app of plan.desired) assert.deepEqual(app.spec.syncPolicy, { syncOptions: ['CreateNamespace=true'] }, `${app.metadata.name} without automated`);
    assert.deepEqual(plan.condition, {
      type: 'RolloutProgressing',
      status: 'True',
      reason: 'ApplicationSetModified',
      message: 'ApplicationSet is performing rollout of step 1',
    });
  });

  it('a Pending Application progresses when its sync runs and becomes Healthy when synced and healthy; then the next step starts within maxUpdate', () => {
    const previous = [
      entry('dev-1', 'Pending', '1', RolloutMessage.movedToPending),
      ...['qa-1', 'qa-2', 'prod-1', 'prod-2'].map((n) => entry(n, 'Waiting', n.startsWith('qa') ? '2' : '3')),
    ];
    const running = planRollout({
      strategy: threeSteps,
      previous,
      desired: apps,
      owned: apps.map((app) =>
        live(
          app,
          app.metadata.name === 'dev-1'
            ? { sync: 'OutOfSync', health: 'Progressing', phase: 'Running', revision: 'r1' }
            : { sync: 'OutOfSync', health: 'Missing', revision: 'r1' },
        ),
      ),
      now: NOW,
    });
    assert.equal(running.statuses.find((s) => s.application === 'dev-1')?.status, 'Progressing');
    assert.equal(running.statuses.find((s) => s.application === 'dev-1')?.message, RolloutMessage.becameProgressing);
    assert.deepEqual(running.syncs, [], 'no second sync while the first runs; no later step yet');

    const done = planRollout({
      strategy: threeSteps,
      previous: running.statuses,
      desired: apps,
      owned: apps.map((app) =>
        live(
          app,
          app.metadata.name === 'dev-1'
            ? { sync: 'Synced', health: 'Healthy', phase: 'Succeeded', revision: 'r1' }
            : { sync: 'OutOfSync', health: 'Missing', revision: 'r1' },
        ),
      ),
      now: NOW,
    });
    assert.deepEqual(
      byName(done.statuses),
      { 'dev-1': 'Healthy@1', 'prod-1': 'Waiting@3', 'prod-2': 'Waiting@3', 'qa-1': 'Pending@2', 'qa-2': 'Waiting@2' },
      'maxUpdate 1: one qa at a time',
    );
    assert.equal(done.statuses.find((s) => s.application === 'dev-1')?.message, RolloutMessage.becameHealthy);
    assert.deepEqual(
      done.syncs.map((s) => s.name),
      ['qa-1'],
    );
    assert.deepEqual(done.condition.message, 'ApplicationSet is performing rollout of step 2');
  });

  it('a running sync keeps its Application Progressing while it is still OutOfSync (no Waiting/Pending flip on every reconcile)', () => {
    const previous = [entry('dev-1', 'Progressing', '1', RolloutMessage.becameProgressing)];
    const dev = generated('dev-1', 'dev');
    const owned = [live(dev, { sync: 'OutOfSync', health: 'Progressing', phase: 'Running', revision: 'r1', operation: { sync: {} } })];
    const plan = planRollout({ strategy: threeSteps, previous, desired: [dev], owned, now: NOW });
    assert.equal(plan.statuses[0]?.status, 'Progressing');
    assert.equal(plan.statusChanged, false);
    assert.deepEqual(plan.syncs, []);
  });

  it('a step that never turns healthy holds every later step, and a second look changes nothing', () => {
    const previous = [
      entry('dev-1', 'Healthy', '1', RolloutMessage.becameHealthy),
      entry('qa-1', 'Progressing', '2', RolloutMessage.syncSucceeded),
      entry('qa-2', 'Waiting', '2'),
      entry('prod-1', 'Waiting', '3'),
      entry('prod-2', 'Waiting', '3'),
    ];
    const state = (name: string): Live =>
      name === 'dev-1'
        ? { sync: 'Synced', health: 'Healthy', phase: 'Succeeded', revision: 'r1' }
        : name === 'qa-1'
          ? { sync: 'Synced', health: 'Degraded', phase: 'Succeeded', revision: 'r1' }
          : { sync: 'OutOfSync', health: 'Missing', revision: 'r1' };
    const plan = planRollout({ strategy: threeSteps, previous, desired: apps, owned: apps.map((app) => live(app, state(app.metadata.name))), now: NOW });
    assert.equal(plan.statusChanged, false, 'nothing to write');
    assert.deepEqual(plan.syncs, []);
    assert.deepEqual(byName(plan.statuses), byName(previous));
    assert.equal(plan.condition.message, 'ApplicationSet is performing rollout of step 2');
  });

  it('an Application that goes OutOfSync again waits again; a new revision resets its entry', () => {
    const previous = [entry('dev-1', 'Healthy', '1', RolloutMessage.becameHealthy)];
    const dev = [generated('dev-1', 'dev')];
    const outOfSync = planRollout({
      strategy: threeSteps,
      previous,
      desired: dev,
      owned: [live(dev[0]!, { sync: 'OutOfSync', health: 'Healthy', revision: 'r1' })],
      now: NOW,
    });
    // Waiting, then at once Pending again: the first step may always sync.
    assert.equal(outOfSync.statuses[0]?.status, 'Pending');
    assert.deepEqual(
      outOfSync.syncs.map((s) => s.name),
      ['dev-1'],
    );
    const moved = planRollout({
      strategy: threeSteps,
      previous: [entry('dev-1', 'Healthy', '1', RolloutMessage.becameHealthy)],
      desired: [generated('dev-1', 'qa')],
      owned: [live(dev[0]!, { sync: 'Synced', health: 'Healthy', revision: 'r2' })],
      now: NOW,
    });
    assert.equal(moved.statuses[0]?.message, RolloutMessage.alreadyHealthy, 'new revision: Waiting, then already healthy');
    assert.equal(moved.statuses[0]?.step, '2', 'and its step follows its labels');
  });

  it('an Application that already carries an operation is not given another; one no step selects never syncs', () => {
    const withOp = planRollout({
      strategy: threeSteps,
      previous: [entry('dev-1', 'Pending', '1', RolloutMessage.movedToPending)],
      desired: [generated('dev-1', 'dev')],
      owned: [live(generated('dev-1', 'dev'), { sync: 'OutOfSync', health: 'Missing', revision: 'r1', operation: { sync: {} } })],
      now: NOW,
    });
    assert.deepEqual(withOp.syncs, []);
    const stray = planRollout({
      strategy: threeSteps,
      previous: [],
      desired: [generated('other', 'staging')],
      owned: [live(generated('other', 'staging'), { sync: 'OutOfSync', health: 'Missing', revision: 'r1' })],
      now: NOW,
    });
    assert.deepEqual(byName(stray.statuses), { other: 'Waiting@-1' });
    assert.deepEqual(stray.syncs, []);
    assert.equal(stray.condition.message, 'ApplicationSet Rollout has completed', 'a step -1 entry is no step');
  });

  it('sync operation: the Application retry and sync options, prune only when automated asked, automated enabled:false kept', () => {
    const app = generated('a', 'dev', { automated: { prune: false }, retry: { limit: 2 } });
    const stripped = withoutAutoSync(app);
    assert.equal(stripped.prune, false);
    assert.deepEqual(syncOperation(stripped.app, stripped.prune), {
      sync: {},
      initiatedBy: { username: 'applicationset-controller', automated: true },
      info: [{ name: 'Reason', value: ROLLING_SYNC_REASON }],
      retry: { limit: 2 },
    });
    const disabled = generated('b', 'dev', { automated: { enabled: false, prune: true } });
    assert.equal(withoutAutoSync(disabled).app, disabled, 'not automated sync, so nothing to remove');
  });

  it('RollingSync without steps keeps no entries and reports the rollout complete', () => {
    const plan = planRollout({ strategy: { steps: [] }, previous: [entry('dev-1', 'Waiting', '1')], desired: apps, owned: [], now: NOW });
    assert.deepEqual(plan.statuses, []);
    assert.equal(plan.statusChanged, true);
    assert.equal(plan.desired, apps, 'auto-sync untouched');
    assert.deepEqual(rolloutCondition(0, []).reason, 'ApplicationSetRolloutComplete');
  });
});
