import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterChangeConcerns, clusterGeneratorSpecs } from '../../src/controller/routing/cluster-routing.js';

const clusters = (selector?: unknown) => ({ clusters: selector === undefined ? {} : { selector } });
const prod = { matchLabels: { env: 'prod' } };
const secretLabels = (env: string) => ({ 'argocd.argoproj.io/secret-type': 'cluster', env });

describe('cluster Secret routing', () => {
  it('finds clusters generators at the top level and nested in matrix and merge', () => {
    const spec = {
      generators: [
        { list: { elements: [] } },
        { matrix: { generators: [clusters(prod), { merge: { generators: [clusters({ matchLabels: { env: 'dev' } }), { list: {} }] } }] } },
      ],
    };
    assert.deepEqual(clusterGeneratorSpecs(spec), [{ selector: prod }, { selector: { matchLabels: { env: 'dev' } } }]);
    assert.deepEqual(clusterGeneratorSpecs({ generators: [{ list: {} }, { git: {} }] }), []);
  });

  it('concerns an ApplicationSet whose selector matches the old or the new labels, and no other', () => {
    const spec = { generators: [clusters(prod)] };
    assert.equal(clusterChangeConcerns(spec, undefined, secretLabels('prod')), true, 'added prod cluster');
    assert.equal(clusterChangeConcerns(spec, undefined, secretLabels('dev')), false, 'added dev cluster');
    assert.equal(clusterChangeConcerns(spec, secretLabels('prod'), secretLabels('dev')), true, 'moved away from prod');
    assert.equal(clusterChangeConcerns(spec, secretLabels('dev'), secretLabels('prod')), true, 'moved to prod');
    assert.equal(clusterChangeConcerns(spec, secretLabels('dev'), secretLabels('staging')), false);
    assert.equal(clusterChangeConcerns(spec, secretLabels('prod'), undefined), true, 'deleted prod cluster');
  });

  it('matches matchExpressions, nested selectors and empty selectors (every cluster)', () => {
    const nested = {
      generators: [{ matrix: { generators: [{ list: {} }, clusters({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'qa'] }] })] } }],
    };
    assert.equal(clusterChangeConcerns(nested, undefined, secretLabels('qa')), true);
    assert.equal(clusterChangeConcerns(nested, undefined, secretLabels('dev')), false);
    assert.equal(clusterChangeConcerns({ generators: [clusters()] }, undefined, secretLabels('anything')), true);
    assert.equal(clusterChangeConcerns({ generators: [{ list: {} }] }, undefined, secretLabels('prod')), false, 'no clusters generator');
  });

  it('counts an unreadable selector as matching, so the reconcile reports it', () => {
    const broken = { generators: [clusters({ matchExpressions: [{ key: 'env', operator: 'Near', values: ['x'] }] })] };
    assert.equal(clusterChangeConcerns(broken, undefined, secretLabels('prod')), true);
  });
});
