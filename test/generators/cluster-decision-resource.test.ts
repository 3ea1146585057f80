import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { renderDecisionResources, type FileObject } from '../../src/cli/render-decision-resources.js';
import { DEFAULT_DECISION_REQUEUE_MS } from '../../src/generators/cluster-decision-resource.js';
import { DecisionResourceError, DecisionResourceRefused, type DecisionResourceAccess } from '../../src/generators/decision-resources.js';
import { formatLabelSelector, parseLabelSelector } from '../../src/generators/label-selector.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { clusterSecret, testContext } from './test-context.js';

const registry = createGeneratorRegistry();
const NS = 'namespace';

// The world of Argo CD v3.2.6's TestGenerateParamsForDuckType (applicationset/generators/duck_type_test.go).
const SECRETS = [
  clusterSecret('staging-01', { name: 'staging-01', server: 'https://staging-01.example.com', config: '{}' }, { environment: 'staging', org: 'foo' }),
  clusterSecret(
    'production-01',
    { name: 'production-01', server: 'https://production-01.example.com', config: '{}' },
    { environment: 'production', org: 'bar' },
  ),
];
const duck = (labels: Record<string, string>, status: unknown, name = 'quak'): FileObject => ({
  apiVersion: 'mallard.io/v1',
  kind: 'Duck',
  metadata: { name, namespace: NS, labels },
  status,
});
const DUCK = duck({ duck: 'all-species' }, { decisions: [{ clusterName: 'staging-01' }, { clusterName: 'production-01' }] });
const DUCK_PROD_ONLY = duck({ duck: 'spotted' }, { decisions: [{ clusterName: 'production-01' }] });
const DUCK_EMPTY = duck({ duck: 'canvasback' }, {});
const CONFIG_MAP_DATA = { apiVersion: 'mallard.io/v1', kind: 'ducks', statusListKey: 'decisions', matchKey: 'clusterName' };
const configMap = (data: Record<string, string>, name = 'my-configmap'): V1ConfigMap => ({ metadata: { name, namespace: NS }, data });

/** The access `appset render` uses, over the given objects: ConfigMaps and ducks of the namespace `namespace`. */
function access(objects: readonly FileObject[], configMaps: readonly V1ConfigMap[] = [configMap(CONFIG_MAP_DATA)]): DecisionResourceAccess {
  return renderDecisionResources(configMaps, objects, NS)(NS);
}

function run(
  spec: Record<string, unknown>,
  options: { goTemplate: boolean; objects?: readonly FileObject[]; access?: DecisionResourceAccess; secrets?: typeof SECRETS },
) {
  const ctx = {
    ...testContext({ goTemplate: options.goTemplate, secrets: options.secrets ?? SECRETS }),
    decisionResources: options.access ?? access(options.objects ?? []),
  };
  return registry.generateEntry({ clusterDecisionResource: { configMapRef: 'my-configmap', ...spec } }, ctx, 'spec.generators[0]');
}

const STAGING = { clusterName: 'staging-01', name: 'staging-01', server: 'https://staging-01.example.com' };
const PRODUCTION = { clusterName: 'production-01', name: 'production-01', server: 'https://production-01.example.com' };
const DEFINITION = /there is a problem with the definition of the ClusterDecisionResource generator/;
const MATCH_EXPRESSIONS = { matchExpressions: [{ key: 'duck', operator: 'In', values: ['all-species', 'marbled'] }] };

// Argo CD's test cases, with its expectations for fasttemplate (values.foo) and goTemplate (values: {foo}).
const CASES: Array<{ name: string; spec: Record<string, unknown>; object: FileObject; fast: unknown; go?: unknown; error?: RegExp }> = [
  { name: 'no duck resource', spec: {}, object: DUCK, fast: undefined, error: DEFINITION },
  { name: 'duck type generator resourceName', spec: { name: 'quak' }, object: DUCK, fast: [STAGING, PRODUCTION] },
  {
    name: 'production-only',
    spec: { name: 'quak', values: { foo: 'bar' } },
    object: DUCK_PROD_ONLY,
    fast: [{ ...PRODUCTION, 'values.foo': 'bar' }],
    go: [{ ...PRODUCTION, values: { foo: 'bar' } }],
  },
  { name: 'duck type empty status', spec: { name: 'quak' }, object: DUCK_EMPTY, fast: [] },
  { name: 'duck type empty status labelSelector.matchLabels', spec: { labelSelector: { matchLabels: { duck: 'canvasback' } } }, object: DUCK_EMPTY, fast: [] },
  {
    name: 'duck type generator labelSelector.matchLabels',
    spec: { labelSelector: { matchLabels: { duck: 'all-species' } } },
    object: DUCK,
    fast: [STAGING, PRODUCTION],
  },
  {
    name: 'production-only labelSelector.matchLabels',
    spec: { labelSelector: { matchLabels: { duck: 'spotted' } }, values: { foo: 'bar' } },
    object: DUCK_PROD_ONLY,
    fast: [{ ...PRODUCTION, 'values.foo': 'bar' }],
    go: [{ ...PRODUCTION, values: { foo: 'bar' } }],
  },
  { name: 'duck type generator labelSelector.matchExpressions', spec: { labelSelector: MATCH_EXPRESSIONS }, object: DUCK, fast: [STAGING, PRODUCTION] },
  {
    name: 'duck type generator resourceName and labelSelector.matchExpressions',
    spec: { name: 'quak', labelSelector: MATCH_EXPRESSIONS },
    object: DUCK,
    fast: undefined,
    error: DEFINITION,
  },
];

describe('clusterDecisionResource generator: the cases of Argo CD v3.2.6', () => {
  for (const goTemplate of [false, true]) {
    for (const c of CASES) {
      it(`${goTemplate ? 'goTemplate' : 'fasttemplate'}: ${c.name}`, async () => {
        const generated = run(c.spec, { goTemplate, objects: [c.object] });
        if (c.error) {
          const error = c.error;
          await assert.rejects(generated, (e: unknown) => e instanceof GeneratorSpecError && error.test(e.message));
          return;
        }
        assert.deepEqual(await generated, goTemplate ? (c.go ?? c.fast) : c.fast);
      });
    }
  }
});

describe('clusterDecisionResource generator: beyond Argo CD’s own tests', () => {
  const fails = async (promise: Promise<unknown>, pattern: RegExp, type: new (...args: never[]) => Error = DecisionResourceError) =>
    assert.rejects(promise, (e: unknown) => e instanceof type && pattern.test(e.message));

  it('names a missing ConfigMap as Argo CD does', async () => {
    await fails(
      run({ name: 'quak', configMapRef: 'nope' }, { goTemplate: true, objects: [DUCK] }),
      /^error reading configMapRef: configmaps "nope" not found$/,
    );
  });
  it('refuses a ConfigMap whose apiVersion has no group or that has no kind, naming what it found', async () => {
    for (const data of [
      { ...CONFIG_MAP_DATA, apiVersion: 'v1' },
      { ...CONFIG_MAP_DATA, kind: '' },
    ]) {
      const refused = run({ name: 'quak' }, { goTemplate: true, access: access([DUCK], [configMap(data)]) });
      await fails(refused, /^there is a problem with the apiVersion, kind or resourceName provided: ConfigMap my-configmap needs/);
    }
  });
  it('fails when no object is selected (never "no clusters"), naming the resource, the name and the namespace', async () => {
    await fails(
      run({ name: 'other' }, { goTemplate: true, objects: [DUCK] }),
      /^no clusterDecisionResources found: no ducks.mallard.io\/v1 named "other" in namespace namespace$/,
    );
  });
  it('gives no parameters when the ConfigMap has no matchKey, as Argo CD', async () => {
    const { matchKey: _, ...data } = CONFIG_MAP_DATA;
    assert.deepEqual(await run({ name: 'quak' }, { goTemplate: true, access: access([DUCK], [configMap(data)]) }), []);
  });
  it('reads status.clusters when the ConfigMap names no statusListKey', async () => {
    const { statusListKey: _, ...data } = CONFIG_MAP_DATA;
    const object = duck({}, { clusters: [{ clusterName: 'staging-01', reason: 'picked' }] });
    assert.deepEqual(await run({ name: 'quak' }, { goTemplate: true, access: access([object], [configMap(data)]) }), [{ ...STAGING, reason: 'picked' }]);
  });
  it('skips decisions that name no known cluster, matches the local cluster as in-cluster, and lets decision fields replace name', async () => {
    const object = duck(
      {},
      { decisions: [{ clusterName: 'gone' }, { clusterName: '' }, { clusterName: 'in-cluster' }, { clusterName: 'staging-01', name: 'renamed' }] },
    );
    assert.deepEqual(await run({ name: 'quak' }, { goTemplate: true, objects: [object] }), [
      { clusterName: 'in-cluster', name: 'in-cluster', server: 'https://kubernetes.default.svc' },
      { ...STAGING, name: 'renamed' },
    ]);
  });
  it('only joins the clusters the context gives (a tenant’s are filtered by its project)', async () => {
    assert.deepEqual(await run({ name: 'quak' }, { goTemplate: true, objects: [DUCK], secrets: [SECRETS[1]!] }), [PRODUCTION]);
  });
  it('keeps values verbatim (Argo CD does not template them for this generator)', async () => {
    assert.deepEqual(await run({ name: 'quak', values: { owner: 'team-{{name}}' } }, { goTemplate: false, objects: [DUCK_PROD_ONLY] }), [
      { ...PRODUCTION, 'values.owner': 'team-{{name}}' },
    ]);
  });
  it('reads every selected object in name order', async () => {
    const objects = [
      duck({ duck: 'x' }, { decisions: [{ clusterName: 'staging-01' }] }, 'b'),
      duck({ duck: 'x' }, { decisions: [{ clusterName: 'production-01' }] }, 'a'),
    ];
    assert.deepEqual(await run({ labelSelector: { matchLabels: { duck: 'x' } } }, { goTemplate: true, objects }), [PRODUCTION, STAGING]);
  });
  it('fails, naming the object and field, where Argo CD’s type assertions would panic', async () => {
    await fails(
      run({ name: 'quak' }, { goTemplate: true, objects: [duck({}, { other: 1 })] }),
      /^clusterDecisionResource quak: status.decisions is not a list$/,
    );
    await fails(run({ name: 'quak' }, { goTemplate: true, objects: [duck({}, { decisions: ['x'] })] }), /status.decisions\[0\] is not an object/);
    await fails(
      run({ name: 'quak' }, { goTemplate: true, objects: [duck({}, { decisions: [{ clusterName: 'staging-01', score: 3 }] })] }),
      /the decision field "score" must be a string/,
    );
  });
  it('passes a tenancy refusal through unchanged', async () => {
    const refusing: DecisionResourceAccess = { ...access([DUCK]), configMapData: () => Promise.reject(new DecisionResourceRefused('not yours')) };
    await fails(run({ name: 'quak' }, { goTemplate: true, access: refusing }), /^not yours$/, DecisionResourceRefused);
  });
  it('wraps a failed list as Argo CD does', async () => {
    const failing: DecisionResourceAccess = { ...access([DUCK]), list: () => Promise.reject(new Error('HTTP 403 Forbidden: no')) };
    await fails(run({ name: 'quak' }, { goTemplate: true, access: failing }), /^failed to get dynamic resources: HTTP 403 Forbidden: no$/);
  });
  it('fails clearly where no duck-typed resource can be read', async () => {
    const ctx = testContext({ secrets: SECRETS });
    await assert.rejects(
      registry.generateEntry({ clusterDecisionResource: { configMapRef: 'my-configmap', name: 'quak' } }, ctx, 'g'),
      /clusterDecisionResource generators cannot run here/,
    );
  });
  it('requeues after 3 minutes by default, as Argo CD; 0 asks for none', () => {
    const requeue = (extra: Record<string, unknown>) => registry.requeueAfterMs({ clusterDecisionResource: { configMapRef: 'c', name: 'n', ...extra } }, 'g');
    assert.equal(requeue({}), DEFAULT_DECISION_REQUEUE_MS);
    assert.equal(DEFAULT_DECISION_REQUEUE_MS, 180_000);
    assert.equal(requeue({ requeueAfterSeconds: 60 }), 60_000);
    assert.equal(requeue({ requeueAfterSeconds: 0 }), undefined);
  });
  it('formats label selectors in the API server’s syntax', () => {
    const selector = parseLabelSelector(
      {
        matchLabels: { duck: 'spotted' },
        matchExpressions: [
          { key: 'a', operator: 'In', values: ['x', 'y'] },
          { key: 'b', operator: 'NotIn', values: ['z'] },
          { key: 'c', operator: 'Exists' },
          { key: 'd', operator: 'DoesNotExist' },
        ],
      },
      's',
    );
    assert.equal(formatLabelSelector(selector), 'duck=spotted,a in (x,y),b notin (z),c,!d');
  });
});
