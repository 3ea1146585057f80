import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecisionReferences } from '../../src/app/decision-references.js';
import { clusterChangeConcerns } from '../../src/controller/routing/cluster-routing.js';
import { decisionChangeConcerns, decisionConfigMapsOf, decisionUpdateMatters } from '../../src/controller/routing/decision-routing.js';

const cdr = (spec: Record<string, unknown>) => ({ clusterDecisionResource: { configMapRef: 'ocm', ...spec } });
const object = (name: string, labels: Record<string, string> = {}, status: unknown = {}) => ({ metadata: { name, labels }, status });

describe('clusterDecisionResource routing', () => {
  it('finds the ConfigMaps an ApplicationSet names, nested ones included, templated ones left out', () => {
    const spec = {
      generators: [
        cdr({ name: 'a' }),
        { matrix: { generators: [{ list: { elements: [] } }, { clusterDecisionResource: { configMapRef: 'other', name: '{{.x}}' } }] } },
        { clusterDecisionResource: { configMapRef: '{{.cm}}', name: 'b' } },
        cdr({ name: 'c' }),
      ],
    };
    assert.deepEqual(decisionConfigMapsOf(spec), ['ocm', 'other']);
    assert.deepEqual(decisionConfigMapsOf({ generators: [{ list: {} }] }), []);
    assert.deepEqual(decisionConfigMapsOf(undefined), []);
  });

  it('a changed object concerns the generators that name it or whose selector matches it before or after', () => {
    const byName = { generators: [cdr({ name: 'placement' })] };
    assert.equal(decisionChangeConcerns(byName, 'ocm', undefined, object('placement')), true);
    assert.equal(decisionChangeConcerns(byName, 'ocm', object('other'), object('other')), false);
    assert.equal(decisionChangeConcerns(byName, 'another-configmap', undefined, object('placement')), false);
    const bySelector = { generators: [cdr({ labelSelector: { matchLabels: { team: 'a' } } })] };
    assert.equal(decisionChangeConcerns(bySelector, 'ocm', object('p', { team: 'a' }), object('p', { team: 'b' })), true);
    assert.equal(decisionChangeConcerns(bySelector, 'ocm', undefined, object('p', { team: 'b' })), false);
    // Unreadable or templated specs count as concerned: the reconcile reports or resolves them.
    assert.equal(decisionChangeConcerns({ generators: [cdr({ labelSelector: 'bad' })] }, 'ocm', undefined, object('p')), true);
    assert.equal(decisionChangeConcerns({ generators: [cdr({ name: '{{.x}}' })] }, 'ocm', undefined, object('p')), true);
  });

  it('an update matters when the status or labels changed, not for other metadata', () => {
    const before = { metadata: { name: 'p', labels: { a: '1' } }, status: { decisions: [{ clusterName: 'x' }] } };
    // A resync or a change of other metadata hands over equal status and labels.
    assert.equal(decisionUpdateMatters(before, structuredClone(before)), false);
    assert.equal(decisionUpdateMatters(before, { ...before, status: { decisions: [] } }), true);
    assert.equal(decisionUpdateMatters(before, { ...before, metadata: { name: 'p', labels: { a: '2' } } }), true);
  });

  it('any cluster Secret change concerns an ApplicationSet with a clusterDecisionResource generator', () => {
    assert.equal(clusterChangeConcerns({ generators: [cdr({ name: 'p' })] }, undefined, { any: 'label' }), true);
    assert.equal(clusterChangeConcerns({ generators: [{ list: {} }] }, undefined, { any: 'label' }), false);
  });

  it('keeps who names which ConfigMap, and says when the ConfigMaps in use changed', () => {
    const refs = new DecisionReferences();
    assert.equal(refs.set('ns/a', ['ocm']), true);
    assert.equal(refs.set('ns/b', ['ocm']), false);
    assert.deepEqual(refs.users('ocm').sort(), ['ns/a', 'ns/b']);
    assert.equal(refs.set('ns/a', ['ocm', 'other']), true);
    assert.equal(refs.set('ns/a', []), true);
    assert.deepEqual(refs.configMaps(), ['ocm']);
    assert.equal(refs.set('ns/b', []), true);
    assert.deepEqual(refs.configMaps(), []);
    assert.deepEqual(refs.users('ocm'), []);
  });
});
