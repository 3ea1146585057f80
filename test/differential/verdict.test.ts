import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffApplications, reduceAll } from './applications.js';
import { parseExpectation } from './corpus.js';
import { judge } from './verdict.js';

const app = (name: string, spec: unknown, labels?: Record<string, string>): unknown => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name, namespace: 'argocd', labels, uid: 'ignored' },
  spec,
});

describe('differential harness', () => {
  it('reads the expectation of a header comment, and refuses a malformed one', () => {
    assert.deepEqual(parseExpectation('# smoke\n# expect: deliberate strict parameters\napiVersion: v1\n', 'f'), {
      kind: 'deliberate',
      reason: 'strict parameters',
    });
    assert.deepEqual(parseExpectation('# expect: both-refuse\n', 'f'), { kind: 'both-refuse' });
    assert.deepEqual(parseExpectation('kind: ApplicationSet\n# expect: both-refuse\n', 'f'), { kind: 'equal' });
    assert.throws(() => parseExpectation('# expect: deliberate\n', 'f'), /deliberate <reason>/);
  });

  it('diffs field by field, ignoring empty metadata maps and fields the cluster adds', () => {
    const ours = reduceAll([app('a', { project: 'default', source: { path: 'x' } }, {}), app('b', {})]);
    const theirs = reduceAll([app('a', { project: 'default', source: { path: 'y' } }), app('c', {})]);
    assert.deepEqual(diffApplications(ours, theirs), [
      'argocd/a.spec.source.path: this project "x", Argo CD "y"',
      'argocd/b: only this project renders it',
      'argocd/c: only Argo CD renders it',
    ]);
  });

  it('keeps an open difference passing only while the two still differ', () => {
    assert.deepEqual(parseExpectation('# expect: open toYaml quoting\n', 'f'), { kind: 'open', reason: 'toYaml quoting' });
    const theirs = { applications: [app('a', { path: 'y' })], reports: [] };
    const open = { kind: 'open' as const, reason: 'r' };
    assert.deepEqual(judge(open, { kind: 'rendered', applications: [app('a', { path: 'x' })] }, theirs), { pass: true, outcome: 'open' });
    assert.deepEqual(judge(open, { kind: 'refused', message: 'no' }, theirs), { pass: true, outcome: 'open' });
    const fixed = judge(open, { kind: 'rendered', applications: [app('a', { path: 'y' })] }, theirs);
    assert.equal(fixed.pass, false);
    assert.match(fixed.pass ? '' : fixed.message, /now agree: remove the mark/);
  });

  it('judges a case by its declared kind', () => {
    const rendered = { applications: [app('a', {})], reports: [] };
    const refused = { applications: [], reports: [{ applicationSet: 'argocd/s', errors: ['bad'] }] };
    assert.deepEqual(judge({ kind: 'equal' }, { kind: 'rendered', applications: [app('a', {})] }, rendered), { pass: true, outcome: 'matched' });
    assert.equal(judge({ kind: 'equal' }, { kind: 'rendered', applications: [] }, refused).pass, false);
    assert.deepEqual(judge({ kind: 'deliberate', reason: 'r' }, { kind: 'refused', message: 'no' }, rendered), { pass: true, outcome: 'deliberate' });
    assert.equal(judge({ kind: 'deliberate', reason: 'r' }, { kind: 'refused', message: 'no' }, refused).pass, false);
    assert.deepEqual(judge({ kind: 'both-refuse' }, { kind: 'refused', message: 'no' }, refused), { pass: true, outcome: 'both-refuse' });
    assert.equal(judge({ kind: 'both-refuse' }, { kind: 'refused', message: 'no' }, rendered).pass, false);
  });

  it("holds a refusal of generated Applications to Argo CD's texts for the Applications it reported", () => {
    const theirs = {
      applications: [app('a', {})],
      reports: [{ applicationSet: 'argocd/s', invalidApplications: { 'argocd/b': 'there are no clusters with this name: x' } }],
    };
    const deliberate = { kind: 'deliberate' as const, reason: 'all-or-nothing' };
    const named = '1 of 2 generated Applications is invalid; nothing applied: Application b: there are no clusters with this name: x';
    assert.deepEqual(judge(deliberate, { kind: 'refused', message: named }, theirs), { pass: true, outcome: 'deliberate' });
    const otherText = judge(
      deliberate,
      { kind: 'refused', message: '1 of 2 generated Applications is invalid; nothing applied: Application b: unknown cluster x' },
      theirs,
    );
    assert.equal(otherText.pass, false);
    assert.match(otherText.pass ? '' : otherText.message, /does not name, in Argo CD's words:\n {2}Application b: there are no clusters with this name: x/);
    assert.deepEqual(judge(deliberate, { kind: 'refused', message: 'a render error' }, theirs), { pass: true, outcome: 'deliberate' }, 'another stage');
  });
});
