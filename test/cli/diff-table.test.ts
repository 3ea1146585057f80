import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyIntent, type LiveFieldRules } from '../../src/controller/plan/apply-intent.js';
import { planChanges } from '../../src/controller/plan/plan.js';
import type { PreviewWorld } from '../../src/controller/reconcile/preview.js';
import { applicationSetDiff } from '../../src/cli/diff/application-changes.js';
import { diffFields } from '../../src/cli/diff/field-diff.js';
import { ARGOPROJ_API_VERSION, ownerReferenceTo, type Application } from '../../src/model/objects.js';
import type { SyncPolicy } from '../../src/model/sync-policy.js';

const identity = { name: 'guestbook', namespace: 'argocd', uid: 'uid-1' };

/** A desired Application, controlled by the ApplicationSet. */
function app(name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): Application {
  return {
    apiVersion: ARGOPROJ_API_VERSION,
    kind: 'Application',
    metadata: { name, namespace: 'argocd', ...(labels ? { labels } : {}), ownerReferences: [ownerReferenceTo(identity)] },
    spec: { project: 'default', source: { repoURL: 'https://git.example/apps.git', path: name, targetRevision: 'v1' }, ...spec },
  };
}

/** The plan and its Application by Application diff for `desired` against the `live` Applications (as the controller wrote them). */
function diff(desired: Application[], live: Application[], options: { policy?: SyncPolicy; rules?: LiveFieldRules; allowMassDeletion?: boolean } = {}) {
  const byName = new Map(live.map((a) => [a.metadata.name, a]));
  const world: PreviewWorld = { owned: live, lookup: (name) => byName.get(name), inNamespace: live.length };
  const policy = options.policy ?? 'sync';
  const rules = options.rules ?? {};
  const plan = planChanges({
    appset: identity,
    desired,
    owned: live,
    lookup: world.lookup,
    policy,
    rules,
    guard: { maxDeleteShare: 0.5, allowMassDeletion: options.allowMassDeletion ?? true },
  });
  return applicationSetDiff(identity, 'present', { kind: 'planned', plan, policy, rules }, world, { ownKeysOnly: false });
}

/** What the controller would have written for `desired` (create intent). */
const written = (desired: Application, rules: LiveFieldRules = {}): Application => applyIntent(desired, undefined, rules);

describe('diffFields (table)', () => {
  const cases: Array<{ name: string; before: unknown; after: unknown; expected: ReturnType<typeof diffFields> }> = [
    { name: 'equal', before: { a: 1, b: [1, 2] }, after: { b: [1, 2], a: 1 }, expected: [] },
    { name: 'scalar change', before: { a: { b: 1 } }, after: { a: { b: 2 } }, expected: [{ path: 'a.b', kind: 'changed', before: 1, after: 2 }] },
    {
      name: 'added and removed keys',
      before: { a: 1 },
      after: { b: 2 },
      expected: [
        { path: 'a', kind: 'removed', before: 1 },
        { path: 'b', kind: 'added', after: 2 },
      ],
    },
    {
      name: 'a key that is not a plain name',
      before: { labels: { 'app.kubernetes.io/name': 'x' } },
      after: { labels: {} },
      expected: [{ path: 'labels["app.kubernetes.io/name"]', kind: 'removed', before: 'x' }],
    },
    {
      name: 'list reorder',
      before: { l: ['a', 'b'] },
      after: { l: ['b', 'a'] },
      expected: [{ path: 'l', kind: 'reordered', before: ['a', 'b'], after: ['b', 'a'] }],
    },
    {
      name: 'named list items compared by name',
      before: {
        p: [
          { name: 'image', value: '1' },
          { name: 'replicas', value: '2' },
        ],
      },
      after: {
        p: [
          { name: 'image', value: '2' },
          { name: 'replicas', value: '2' },
          { name: 'debug', value: 'true' },
        ],
      },
      expected: [
        { path: 'p[name=image].value', kind: 'changed', before: '1', after: '2' },
        { path: 'p[name=debug]', kind: 'added', after: { name: 'debug', value: 'true' } },
      ],
    },
    {
      name: 'other lists index by index',
      before: { l: [1, 2] },
      after: { l: [1, 3, 4] },
      expected: [
        { path: 'l[1]', kind: 'changed', before: 2, after: 3 },
        { path: 'l[2]', kind: 'added', after: 4 },
      ],
    },
    { name: 'type change', before: { a: 'x' }, after: { a: { b: 1 } }, expected: [{ path: 'a', kind: 'changed', before: 'x', after: { b: 1 } }] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(diffFields(c.before, c.after), c.expected));
});

describe('Application by Application diff of a plan (table)', () => {
  it('creates: every field of the new Application, as added', () => {
    const d = diff([app('a')], []);
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action]),
      [['a', 'create']],
    );
    assert.ok(d.changes[0]?.fields.some((f) => f.path === 'spec.source.path' && f.kind === 'added' && f.after === 'a'));
    assert.equal(
      d.changes[0]?.fields.some((f) => f.path.includes('intent-hash')),
      false,
      'the intent hash is the controller’s bookkeeping, not a change',
    );
  });

  it('deletes: an owned Application no longer generated', () => {
    const d = diff([app('a')], [written(app('a')), written(app('b'))]);
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action]),
      [['b', 'delete']],
    );
    assert.equal(d.unchanged, 1);
  });

  it('field changes: only the fields that differ', () => {
    const d = diff([app('a', { source: { repoURL: 'https://git.example/apps.git', path: 'a', targetRevision: 'v2' } })], [written(app('a'))]);
    assert.deepEqual(d.changes, [
      { name: 'a', action: 'update', fields: [{ path: 'spec.source.targetRevision', kind: 'changed', before: 'v1', after: 'v2' }] },
    ]);
  });

  it('renames: a delete and a create of the same Application under another name are paired', () => {
    const spec = { source: { repoURL: 'https://git.example/apps.git', path: 'same', targetRevision: 'v1' } };
    const d = diff([app('new-name', spec)], [written(app('old-name', spec))]);
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action, c.renamedFrom ?? c.renamedTo]),
      [
        ['new-name', 'create', 'old-name'],
        ['old-name', 'delete', 'new-name'],
      ],
    );
  });

  it('list reorders: multiple sources in another order are one reordered change', () => {
    const sources = [{ repoURL: 'https://a.example/x.git' }, { repoURL: 'https://b.example/y.git' }];
    const d = diff([app('a', { sources: [...sources].reverse() })], [written(app('a', { sources }))]);
    assert.deepEqual(
      d.changes[0]?.fields.map((f) => [f.path, f.kind]),
      [['spec.sources', 'reordered']],
    );
  });

  it('sync policy create-only: no updates or deletes, and it says so', () => {
    const d = diff([app('a', { project: 'other' }), app('c')], [written(app('a')), written(app('b'))], { policy: 'create-only' });
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action]),
      [['c', 'create']],
    );
    assert.deepEqual(d.skippedByPolicy, { updates: ['a'], deletes: ['b'] });
    assert.deepEqual(d.notes, ['sync policy create-only: 1 update and 1 delete are not made (the policy does not allow updates or deletes)']);
  });

  it('sync policy create-update: updates, no deletes', () => {
    const d = diff([app('a', { project: 'other' })], [written(app('a')), written(app('b'))], { policy: 'create-update' });
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action]),
      [['a', 'update']],
    );
    assert.deepEqual(d.skippedByPolicy, { updates: [], deletes: ['b'] });
  });

  it('sync policy create-delete: deletes, no updates', () => {
    const d = diff([app('a', { project: 'other' })], [written(app('a')), written(app('b'))], { policy: 'create-delete' });
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action]),
      [['b', 'delete']],
    );
    assert.deepEqual(d.skippedByPolicy, { updates: ['a'], deletes: [] });
  });

  it('ignoreApplicationDifferences: an ignored field that differs is no change', () => {
    const rules = { ignoreDifferences: [{ jsonPointers: ['/spec/source/targetRevision'] }] };
    const live = written(app('a'));
    const d = diff([app('a', { source: { repoURL: 'https://git.example/apps.git', path: 'a', targetRevision: 'v9' } })], [applyIntent(live, live, rules)], {
      rules,
    });
    assert.deepEqual(d.changes, []);
    assert.equal(d.unchanged, 1);
  });

  it('preservedFields: a preserved label someone set on the live Application is kept, not a change', () => {
    const rules = { preservedFields: { labels: ['team'] } };
    // Someone set team=blue; the controller's last apply (with the rule) left it and stamped its intent.
    const desired = app('a', {}, { team: 'red' });
    const blue = (a: Application): Application => ({ ...a, metadata: { ...a.metadata, labels: { ...a.metadata.labels, team: 'blue' } } });
    const live = blue(applyIntent(desired, blue(written(desired)), rules));
    const d = diff([app('a', {}, { team: 'red' })], [live], { rules });
    assert.deepEqual(d.changes, []);
    assert.equal(d.unchanged, 1);
    // Without the rule the label is overwritten: the same input shows the change.
    const without = diff([app('a', {}, { team: 'red' })], [live]);
    assert.deepEqual(without.changes[0]?.fields, [{ path: 'metadata.labels.team', kind: 'changed', before: 'blue', after: 'red' }]);
  });

  it('the deletion guard: refused deletes are shown as refused and not counted as changes', () => {
    const live = ['a', 'b', 'c', 'd'].map((n) => written(app(n)));
    const d = diff([app('a')], live, { allowMassDeletion: false });
    assert.deepEqual(
      d.changes.map((c) => [c.name, c.action, c.refused]),
      [
        ['b', 'delete', true],
        ['c', 'delete', true],
        ['d', 'delete', true],
      ],
    );
  });
});
