import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiException, ApiextensionsV1Api, CustomObjectsApi, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { main } from '../../src/cli/main.js';
import { CrdValidator, type SchemaVerdict } from '../../src/kube/crd-schema/crd-validator.js';
import { installedCrdValidator } from '../../src/kube/crd-schema/installed.js';
import { installCrds } from '../../src/kube/install-crds.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { tempFile } from './diff-harness.js';

type Json = Record<string, unknown>;
type Case = readonly [name: string, change: (object: Json) => void];

/** Where the API server put its verdict: the result, and the problems as `field: message` (422) or the 400 message. */
interface ApiVerdict {
  readonly result: SchemaVerdict['result'];
  readonly problems: readonly string[];
  readonly message: string;
}

const at = (object: Json, ...path: (string | number)[]): Json => path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key] as Json, object);

/** Creates `object` with dryRun=All and fieldValidation=Strict (as `kubectl apply` validates) and reads the answer. */
async function apiVerdict(custom: CustomObjectsApi, plural: string, object: Json): Promise<ApiVerdict> {
  const [group = '', version = ''] = String(object['apiVersion']).split('/');
  const namespace = String(at(object, 'metadata')['namespace']);
  try {
    await custom.createNamespacedCustomObject({
      group,
      version: version || 'v1alpha1',
      namespace,
      plural,
      body: object,
      dryRun: 'All',
      fieldValidation: 'Strict',
    });
    return { result: 'accepted', problems: [], message: '' };
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const status = JSON.parse(String(error.body)) as { message: string; details?: { causes?: { field?: string; message?: string }[] } };
    if (error.code === 422) {
      return { result: 'invalid', problems: (status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`), message: status.message };
    }
    assert.ok(error.code === 400 || error.code === 404, `unexpected HTTP ${error.code}: ${status.message}`);
    return { result: 'bad-request', problems: [], message: status.message };
  }
}

/** The verdicts must agree: accept or refuse, and the fields named (with the API server's exact words for a 422). */
function assertAgree(ours: SchemaVerdict, theirs: ApiVerdict, name: string): void {
  assert.equal(ours.result, theirs.result, `${name}: ours ${JSON.stringify(ours)}, API server: ${theirs.message}`);
  if (theirs.result === 'invalid') assert.deepEqual([...ours.problems].sort(), [...theirs.problems].sort(), name);
  if (theirs.result === 'bad-request') {
    const unknown = [...theirs.message.matchAll(/unknown field "([^"]*)"/g)].map((m) => m[1]);
    if (unknown.length > 0) assert.deepEqual([...ours.fields].sort(), unknown.sort(), `${name}: ${theirs.message}`);
    // Any other refusal while decoding: our one problem is the API server's error, after the field it names.
    else
      for (const problem of ours.problems)
        assert.ok(theirs.message.includes(problem.slice(problem.indexOf(': ') + 2)), `${name}: "${theirs.message}" is not "${problem}"`);
  }
  if (theirs.result !== 'accepted') assert.ok(ours.problems.length > 0, name);
}

async function validateCli(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(['validate', ...args], { out: (t) => void (err += t), err: (t) => void (err += t) });
  return { code, err };
}

describe('appset validate agrees with the real API server (dryRun=All, fieldValidation=Strict)', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;

  before(async () => {
    ns = await createTestNamespace(kc, 'schema');
  });
  after(() => ns.delete());

  const appset = (): Json => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'guestbook', namespace: ns.name, labels: { team: 'red' } },
    spec: {
      generators: [{ list: { elements: [{ env: 'dev' }] } }],
      template: {
        metadata: { name: 'guestbook-{{env}}', labels: { env: '{{env}}' } },
        spec: {
          project: 'default',
          source: { repoURL: 'https://git.example/apps.git', path: 'guestbook', targetRevision: 'main' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook-{{env}}' },
        },
      },
    },
  });
  const spec = (o: Json): Json => at(o, 'spec');
  const generator = (o: Json): Json => at(o, 'spec', 'generators', 0);

  const applicationSetCases: readonly Case[] = [
    ['a valid ApplicationSet', () => undefined],
    ['an unknown field in spec', (o) => void (spec(o)['foo'] = 1)],
    [
      'two unknown fields, nested in a generator and in the template metadata',
      (o) => {
        at(generator(o), 'list')['foo'] = 'x';
        at(o, 'spec', 'template', 'metadata')['bar'] = 'y';
      },
    ],
    ['an unknown metadata field', (o) => void (at(o, 'metadata')['colour'] = 'blue')],
    ['an unknown field inside a string field (an object where a string goes)', (o) => void (spec(o)['templatePatch'] = { a: 1 })],
    ['an unknown field under status', (o) => void (o['status'] = { foo: 1 })],
    [
      'unknown fields win over type errors (the request is refused while decoding)',
      (o) => {
        spec(o)['foo'] = 1;
        spec(o)['goTemplate'] = 'yes';
      },
    ],
    ['a string where a boolean goes', (o) => void (spec(o)['goTemplate'] = 'yes')],
    ['an object where a list goes', (o) => void (spec(o)['generators'] = {})],
    ['no generators (minItems)', (o) => void (spec(o)['generators'] = [])],
    ['an unknown sync policy (enum)', (o) => void (spec(o)['syncPolicy'] = { applicationsSync: 'everything' })],
    ['a number where the enum wants a string', (o) => void (spec(o)['syncPolicy'] = { applicationsSync: 5 })],
    ['no template (required)', (o) => void delete spec(o)['template']],
    ['a template without spec (required, nested)', (o) => void delete at(o, 'spec', 'template')['spec']],
    [
      'a git generator without repoURL (required in a list item)',
      (o) => void (spec(o)['generators'] = [{ git: { revision: 'main', directories: [{ path: '*' }] } }]),
    ],
    [
      'a matchExpression without operator',
      (o) => void (spec(o)['generators'] = [{ clusters: { selector: { matchExpressions: [{ key: 'env', values: ['a'] }] } } }]),
    ],
    [
      'a negative requeueAfterSeconds (minimum)',
      (o) => void (spec(o)['generators'] = [{ git: { repoURL: 'https://git.example/a.git', requeueAfterSeconds: -1 } }]),
    ],
    [
      'a fractional requeueAfterSeconds (integer)',
      (o) => void (spec(o)['generators'] = [{ git: { repoURL: 'https://git.example/a.git', requeueAfterSeconds: 1.5 } }]),
    ],
    [
      'a string requeueAfterSeconds (integer, format int64 not kept)',
      (o) => void (spec(o)['generators'] = [{ git: { repoURL: 'https://git.example/a.git', requeueAfterSeconds: '10' } }]),
    ],
    ['a number as a template label value (additionalProperties)', (o) => void (at(o, 'spec', 'template', 'metadata', 'labels')['tier'] = 5)],
    ['anything under the preserved template spec', (o) => void (at(o, 'spec', 'template', 'spec')['revisionHistoryLimit'] = 3)],
    [
      'anything in list elements, nulls included (preserved)',
      (o) => {
        // Go templates, since with fasttemplate the controller wants string values.
        spec(o)['goTemplate'] = true;
        at(generator(o), 'list')['elements'] = [{ env: 'dev', extra: { deep: [1, null, { a: true }] } }];
        at(o, 'spec', 'template')['metadata'] = { name: 'guestbook-{{.env}}' };
        at(o, 'spec', 'template', 'spec', 'destination')['namespace'] = 'guestbook-{{.env}}';
      },
    ],
    [
      'known fields are still checked below a preserved combining generator',
      (o) => {
        spec(o)['generators'] = [{ matrix: { generators: [{ list: { elements: [{ a: 1 }] } }, { list: { elements: [{ b: 2 }] } }], mergeKeys: 'a' } }];
      },
    ],
    ['a null where a value goes is dropped (not nullable)', (o) => void (spec(o)['goTemplate'] = null)],
    ['a null required field is dropped, then missing', (o) => void (spec(o)['template'] = null)],
    ['a null list item', (o) => void (spec(o)['goTemplateOptions'] = [null])],
    ['an invalid name', (o) => void (at(o, 'metadata')['name'] = 'Guestbook_1')],
    ['an invalid label key and value', (o) => void (at(o, 'metadata')['labels'] = { 'bad key': 'ok', good: 'bad value!' })],
    ['an invalid annotation key', (o) => void (at(o, 'metadata')['annotations'] = { 'a/b/c': 'x' })],
    ['labels that are not a map (metadata decoding)', (o) => void (at(o, 'metadata')['labels'] = 'team=red')],
    ['status is dropped on create (status subresource): its types are not checked', (o) => void (o['status'] = { resourcesCount: 'many' })],
  ];

  for (const [name, change] of applicationSetCases) {
    it(`ApplicationSet: ${name}`, async () => {
      const object = appset();
      change(object);
      const ours = installedCrdValidator('ApplicationSet')?.check(object);
      assert.ok(ours);
      assertAgree(ours, await apiVerdict(custom, 'applicationsets', object), name);
      // The command's verdict: silent and 0 exactly when the API server accepts, otherwise every problem, exit 1.
      const cli = await validateCli([tempFile('appset.yaml', JSON.stringify(object)), '--namespace', ns.name]);
      if (ours.result === 'accepted') assert.deepEqual(cli, { code: 0, err: '' }, name);
      else {
        assert.equal(cli.code, 1, cli.err);
        assert.match(cli.err, new RegExp(`^ApplicationSet ${ns.name}/[^:]+: InvalidManifest: the API server would refuse this manifest: `));
        for (const problem of ours.problems) assert.ok(cli.err.includes(problem), `${name}: ${cli.err} lacks ${problem}`);
      }
    });
  }

  const project = (): Json => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'team-a', namespace: ns.name },
    spec: { sourceRepos: ['*'], destinations: [{ server: 'https://kubernetes.default.svc', namespace: '*' }], sourceNamespaces: ['team-a'] },
  });
  const appProjectCases: readonly Case[] = [
    ['a valid AppProject, with fields this CRD only preserves', (o) => void (at(o, 'spec')['clusterResourceWhitelist'] = [{ group: '*', kind: '*' }])],
    ['an unknown field in a destination', (o) => void (at(o, 'spec', 'destinations', 0)['cluster'] = 'x')],
    ['a string where a list goes', (o) => void (at(o, 'spec')['sourceRepos'] = '*')],
    ['no spec', (o) => void delete o['spec']],
  ];
  for (const [name, change] of appProjectCases) {
    it(`AppProject: ${name}`, async () => {
      const object = project();
      change(object);
      const ours = installedCrdValidator('AppProject')?.check(object);
      assert.ok(ours);
      assertAgree(ours, await apiVerdict(custom, 'appprojects', object), name);
      const projects = tempFile('projects.yaml', JSON.stringify(object));
      const cli = await validateCli([tempFile('appset.yaml', JSON.stringify(appset())), '--namespace', ns.name, '--projects', projects]);
      if (ours.result === 'accepted') assert.deepEqual(cli, { code: 0, err: '' }, name);
      else {
        assert.equal(cli.code, 1, cli.err);
        assert.match(cli.err, new RegExp(`^AppProject ${ns.name}/team-a: InvalidManifest: the API server would refuse this manifest: `));
        for (const problem of ours.problems) assert.ok(cli.err.includes(problem), `${name}: ${cli.err} lacks ${problem}`);
      }
    });
  }
});

/** A CRD with the keywords this project's CRDs do not use yet, so the validator's handling of each is proven too. */
// Written as the YAML would be (the client's typed model spells `enum` as `_enum`).
const CHECKS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'schemachecks.appset-test.example.com' },
  spec: {
    group: 'appset-test.example.com',
    scope: 'Namespaced',
    names: { kind: 'SchemaCheck', plural: 'schemachecks', singular: 'schemacheck', listKind: 'SchemaCheckList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['port'],
                properties: {
                  port: { 'x-kubernetes-int-or-string': true },
                  note: { type: 'string', nullable: true },
                  count: { type: 'integer', minimum: 1, maximum: 10 },
                  ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 },
                  step: { type: 'integer', multipleOf: 5 },
                  code: { type: 'string', pattern: '^[a-z]+-[0-9]+$', minLength: 3, maxLength: 8 },
                  mode: { type: 'string', enum: ['fast', 'slow'] },
                  level: { type: 'integer', enum: [1, 2, 3] },
                  tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
                  maybe: { type: 'array', nullable: true, items: { type: 'string', nullable: true } },
                  limits: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: { 'x-kubernetes-int-or-string': true } },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'boolean' } } },
                  when: { type: 'string', format: 'date-time' },
                  size: { type: 'integer', format: 'int64' },
                },
              },
            },
          },
        },
      },
    ],
  },
} as unknown as V1CustomResourceDefinition;

describe('the schema validator agrees with the real API server on every keyword it implements', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  const validator = CrdValidator.fromCrd(CHECKS_CRD);
  let ns: TestNamespace;

  before(async () => {
    await installCrds(createKubeTransport(kc), [CHECKS_CRD]);
    ns = await createTestNamespace(kc, 'schema-kw');
  });
  after(async () => {
    await ns.delete();
    await kc
      .makeApiClient(ApiextensionsV1Api)
      .deleteCustomResourceDefinition({ name: 'schemachecks.appset-test.example.com' })
      .catch(() => undefined);
  });

  const check = (specFields: Json): Json => ({
    apiVersion: 'appset-test.example.com/v1',
    kind: 'SchemaCheck',
    metadata: { name: 'c', namespace: ns.name },
    spec: { port: 80, ...specFields },
  });
  const cases: readonly (readonly [string, Json])[] = [
    ['int-or-string: an integer', {}],
    ['int-or-string: a string', { port: 'http' }],
    ['int-or-string: a fraction', { port: 8.5 }],
    ['int-or-string: a boolean', { port: true }],
    ['int-or-string: an object (its keys are unknown fields)', { port: { a: 1 } }],
    ['int-or-string: null, dropped, then required', { port: null }],
    ['nullable: null kept', { note: null }],
    ['minimum', { count: 0 }],
    ['maximum', { count: 11 }],
    ['integer: a fraction', { count: 1.5 }],
    ['exclusiveMinimum', { ratio: 0 }],
    ['multipleOf a fraction', { ratio: 0.75 }],
    ['multipleOf, accepted', { ratio: 1.5 }],
    ['multipleOf an integer', { step: 7 }],
    ['minLength (checked before the pattern)', { code: 'ab' }],
    ['maxLength', { code: 'abcdefghi' }],
    ['pattern', { code: 'abc' }],
    ['pattern, accepted', { code: 'abc-12' }],
    ['enum of strings', { mode: 'medium' }],
    ['enum of integers', { level: 4 }],
    ['enum of integers, given a string: type and enum', { level: '1' }],
    ['maxItems', { tags: ['a', 'b', 'c'] }],
    ['a nullable list and items: null', { maybe: null }],
    ['nullable items: a null item', { maybe: [null, 'a'] }],
    ['nullable items: a number', { maybe: [1] }],
    ['minProperties', { limits: {} }],
    ['maxProperties', { limits: { a: 1, b: 2, c: 3 } }],
    ['additionalProperties: int-or-string values', { limits: { cpu: '1', memory: true } }],
    ['preserved object: known fields checked, others kept', { free: { known: 'yes', other: { deep: [1] } } }],
    ['preserved object: accepted', { free: { known: true, other: null } }],
    ['format date-time', { when: 'yesterday' }],
    ['format date-time, accepted', { when: '2024-01-02T03:04:05Z' }],
    ['format int64 is not kept: a string is a type error only', { size: '10' }],
    ['format int64 is not kept: a boolean', { size: true }],
    ['several problems at once', { count: 0, mode: 'x', tags: [1, 'b', 'c'] }],
    ['an unknown field', { extra: 1 }],
  ];
  for (const [name, specFields] of cases) {
    it(name, async () => {
      const object = check(specFields);
      assertAgree(validator.check(object), await apiVerdict(custom, 'schemachecks', object), name);
    });
  }
});
