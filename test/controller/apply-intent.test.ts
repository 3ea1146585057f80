import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyIntent, INTENT_HASH_ANNOTATION, intentHash } from '../../src/controller/plan/apply-intent.js';
import { referenceApplyIntentOnCreate } from './intent-reference.js';
import { desiredApplication } from '../../src/controller/reconcile/desired-application.js';
import { getAt, parsePointer, removeAt, setAt } from '../../src/controller/plan/json-pointer.js';
import { needsApply } from '../../src/controller/plan/needs-apply.js';
import { appliedLive, appset, awkwardIntent, desired, liveFrom } from './application-fixtures.js';

describe('desiredApplication', () => {
  const rendered = (finalizers?: string[]) => ({
    apiVersion: 'argoproj.io/v1alpha1' as const,
    kind: 'Application' as const,
    metadata: { name: 'a', namespace: 'from-template', ...(finalizers ? { finalizers } : {}) },
    spec: { project: 'default' },
  });

  it('forces the namespace and sets a controller owner reference with blockOwnerDeletion', () => {
    const app = desiredApplication(rendered(), appset);
    assert.equal(app.metadata.namespace, 'team-a');
    assert.deepEqual(app.metadata.ownerReferences, [
      { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'uid-guestbook', controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('keeps the finalizers the renderer decided on, and adds none of its own', () => {
    assert.deepEqual(desiredApplication(rendered(['resources-finalizer.argocd.argoproj.io']), appset).metadata.finalizers, [
      'resources-finalizer.argocd.argoproj.io',
    ]);
    assert.equal(desiredApplication(rendered(), appset).metadata.finalizers, undefined);
  });
});

describe('applyIntent and needsApply', () => {
  it('applies the desired object as is on create, stamped with its hash', () => {
    const intent = applyIntent(desired('a'), undefined, {});
    assert.match(intent.metadata.annotations?.[INTENT_HASH_ANNOTATION] ?? '', /^[0-9a-f]{32}$/);
    assert.deepEqual(intent.spec, desired('a').spec);
  });

  it('finds nothing to do when live equals what was applied, even with fields others added', () => {
    const live = liveFrom(appliedLive(desired('a')), (l) => {
      l.metadata.annotations['argocd.argoproj.io/refresh'] = 'hard';
      l.metadata.finalizers.push('post-delete-finalizer.argocd.argoproj.io');
      l.spec.syncPolicy = { automated: {} };
    });
    assert.equal(needsApply(applyIntent(desired('a'), live, {}), live), false);
  });

  it('reverts a hand edit of a templated field and notices a field dropped from the template', () => {
    const live = appliedLive(desired('a', 'a', { helm: { releaseName: 'x' } }));
    assert.equal(needsApply(applyIntent(desired('a', 'a', { helm: { releaseName: 'x' } }), live, {}), live), false);
    const edited = liveFrom(live, (l) => (l.spec.source.helm = { releaseName: 'hand' }));
    assert.equal(needsApply(applyIntent(desired('a', 'a', { helm: { releaseName: 'x' } }), edited, {}), edited), true);
    assert.equal(needsApply(applyIntent(desired('a'), live, {}), live), true, 'helm was dropped from the template');
  });

  it('keeps preserved annotations and labels the live object has, and Argo CD preserves refresh by default', () => {
    const template = desired('a');
    const withPreservable = {
      ...template,
      metadata: { ...template.metadata, annotations: { 'argocd.argoproj.io/refresh': 'normal', keep: 'template' }, labels: { tier: 'template' } },
    };
    const live = liveFrom(appliedLive(template), (l) => {
      l.metadata.annotations['argocd.argoproj.io/refresh'] = 'hard';
      l.metadata.annotations.keep = 'live';
      l.metadata.labels.tier = 'live';
    });
    const intent = applyIntent(withPreservable, live, { preservedFields: { annotations: ['keep'], labels: ['tier'] } });
    assert.equal(intent.metadata.annotations?.['argocd.argoproj.io/refresh'], undefined, 'left to its live owner');
    assert.equal(intent.metadata.annotations?.keep, undefined);
    assert.equal(intent.metadata.labels?.tier, undefined);
    const fresh = applyIntent(withPreservable, undefined, { preservedFields: { annotations: ['keep'] } });
    assert.equal(fresh.metadata.annotations?.keep, 'template', 'on create the template value is written');
  });

  it('keeps applying a preserved key whose live value is still the template value, so the API server does not drop it', () => {
    const template = desired('a');
    const withTier = { ...template, metadata: { ...template.metadata, labels: { tier: 'template' } } };
    const live = appliedLive(withTier);
    const intent = applyIntent(withTier, live, { preservedFields: { labels: ['tier'] } });
    assert.equal(intent.metadata.labels?.tier, 'template');
  });

  it('keeps live values at ignored JSON pointers, for matching names only', () => {
    const live = liveFrom(appliedLive(desired('a', 'a', { targetRevision: 'v1' })), (l) => (l.spec.source.targetRevision = 'pinned-by-hand'));
    const rule = { jsonPointers: ['/spec/source/targetRevision'] };
    const kept = applyIntent(desired('a', 'a', { targetRevision: 'v1' }), live, { ignoreDifferences: [rule] });
    assert.equal((kept.spec.source as { targetRevision: string }).targetRevision, 'pinned-by-hand');
    const otherName = applyIntent(desired('a', 'a', { targetRevision: 'v1' }), live, { ignoreDifferences: [{ ...rule, name: 'b' }] });
    assert.equal((otherName.spec.source as { targetRevision: string }).targetRevision, 'v1');
    const absentLive = liveFrom(appliedLive(desired('a')), () => undefined);
    const dropped = applyIntent(desired('a', 'a', { targetRevision: 'v1' }), absentLive, { ignoreDifferences: [rule] });
    assert.equal((dropped.spec.source as Record<string, unknown>).targetRevision, undefined);
  });
});

describe('JSON pointers', () => {
  it('parses escapes and refuses malformed pointers', () => {
    assert.deepEqual(parsePointer('/metadata/annotations/a~1b~0c'), ['metadata', 'annotations', 'a/b~c']);
    assert.deepEqual(parsePointer(''), []);
    assert.throws(() => parsePointer('spec'), /must start with/);
    assert.throws(() => parsePointer('/a~2'), /bad escape/);
  });

  it('reads, writes and removes values, refusing prototype keys', () => {
    const doc: Record<string, unknown> = { spec: { list: [{ a: 1 }] } };
    assert.equal(getAt(doc, ['spec', 'list', '0', 'a']), 1);
    assert.equal(getAt(doc, ['spec', 'missing', 'x']), undefined);
    setAt(doc, ['spec', 'new', 'deep'], 'v');
    assert.equal(getAt(doc, ['spec', 'new', 'deep']), 'v');
    assert.equal(removeAt(doc, ['spec', 'list', '0']), true);
    assert.deepEqual(getAt(doc, ['spec', 'list']), []);
    assert.throws(() => setAt(doc, ['__proto__', 'polluted'], true), /not allowed/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('ignoreApplicationDifferences rules', () => {
  it('refuses jqPathExpressions with a message saying what to use instead', async () => {
    const { liveFieldRulesOf } = await import('../../src/controller/reconcile/applicationset.js');
    const appsetWith = (rules: unknown[]) => ({ spec: { ignoreApplicationDifferences: rules } }) as unknown as Parameters<typeof liveFieldRulesOf>[0];
    assert.throws(
      () => liveFieldRulesOf(appsetWith([{ jsonPointers: ['/spec/x'] }, { jqPathExpressions: ['.spec.x'] }])),
      /ignoreApplicationDifferences\[1\]\.jqPathExpressions is not supported; use jsonPointers/,
    );
    assert.deepEqual(liveFieldRulesOf(appsetWith([{ jsonPointers: ['/spec/x'] }])).ignoreDifferences, [{ jsonPointers: ['/spec/x'] }]);
  });
});

describe('intentHash', () => {
  // Hashes are stored on live Applications: if the canonical text changed, every Application would look
  // changed after an upgrade and be applied again. Both the value and the text are pinned.
  const intent = awkwardIntent;

  it('is the value earlier releases stored (computed with the implementation before session 7)', () => {
    assert.equal(intentHash(intent), '6711a765da45ddb0cb3208e89dd0a042');
    assert.equal(applyIntent(intent, undefined, {}).metadata.annotations?.[INTENT_HASH_ANNOTATION], '6711a765da45ddb0cb3208e89dd0a042');
    assert.deepEqual(applyIntent(intent, undefined, {}), referenceApplyIntentOnCreate(intent));
  });

  it('does not change the desired object it stamps, on create or on update', () => {
    const desiredApp = desired('a', 'a', { targetRevision: 'v1' });
    const before = JSON.stringify(desiredApp);
    const created = applyIntent(desiredApp, undefined, {});
    const live = liveFrom(appliedLive(desiredApp), (l) => (l.metadata.annotations['argocd.argoproj.io/refresh'] = 'hard'));
    const updated = applyIntent({ ...desiredApp, metadata: { ...desiredApp.metadata, annotations: { 'argocd.argoproj.io/refresh': 'normal' } } }, live, {
      ignoreDifferences: [{ jsonPointers: ['/spec/source/targetRevision'] }],
    });
    assert.equal(JSON.stringify(desiredApp), before);
    assert.notEqual(created.metadata, desiredApp.metadata);
    assert.equal(updated.metadata.annotations?.['argocd.argoproj.io/refresh'], undefined);
  });
});
