import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParamSet } from '../../src/model/params.js';
import { ApplicationRenderError, renderApplicationSet } from '../../src/templating/render-applicationset.js';
import { RenderError } from '../../src/templating/renderer.js';
import { appset, docsElements } from './appset-fixtures.js';

const one = (params: ParamSet[], generatorIndex = 0) => [{ generatorIndex, params }];

describe('renderApplicationSet', () => {
  it('renders the Argo CD list-generator example (fasttemplate) into Applications in the ApplicationSet namespace', () => {
    const apps = renderApplicationSet(appset(), one(docsElements)).map((r) => r.application);
    assert.deepEqual(apps[0], {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'engineering-dev-guestbook', namespace: 'team-a', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      spec: {
        project: 'default',
        source: {
          repoURL: 'https://github.com/argoproj/argo-cd.git',
          targetRevision: 'HEAD',
          path: 'applicationset/examples/list-generator/guestbook/engineering-dev',
        },
        destination: { server: 'https://1.2.3.4', namespace: 'guestbook' },
      },
    });
    assert.equal(apps[1]?.metadata.name, 'engineering-prod-guestbook');
  });

  it('renders the same example written with goTemplate to the same Applications', () => {
    const go = appset({
      goTemplate: true,
      template: {
        metadata: { name: '{{.cluster}}-guestbook' },
        spec: {
          project: 'default',
          source: {
            repoURL: 'https://github.com/argoproj/argo-cd.git',
            targetRevision: 'HEAD',
            path: 'applicationset/examples/list-generator/guestbook/{{.cluster}}',
          },
          destination: { server: '{{.url}}', namespace: 'guestbook' },
        },
      },
    });
    assert.deepEqual(renderApplicationSet(go, one(docsElements)), renderApplicationSet(appset(), one(docsElements)));
  });

  it('forces metadata.namespace to the ApplicationSet namespace, whatever the template or patch says', () => {
    const spec = appset().spec;
    const a = appset({
      template: { ...spec.template, metadata: { name: '{{cluster}}', namespace: 'argocd' } },
      templatePatch: 'metadata:\n  namespace: kube-system\n',
    });
    assert.equal(renderApplicationSet(a, one(docsElements))[0]?.application.metadata.namespace, 'team-a');
  });

  it('keeps template finalizers, and adds none when preserveResourcesOnDeletion is set (as Argo CD)', () => {
    const spec = appset().spec;
    const own = appset({ template: { ...spec.template, metadata: { name: '{{cluster}}', finalizers: ['x.io/f'] } } });
    assert.deepEqual(renderApplicationSet(own, one(docsElements))[0]?.application.metadata.finalizers, ['x.io/f']);
    const preserve = appset({ syncPolicy: { preserveResourcesOnDeletion: true } });
    assert.equal(renderApplicationSet(preserve, one(docsElements))[0]?.application.metadata.finalizers, undefined);
  });

  it('renders string leaves and keys only: numbers and booleans keep their type', () => {
    const spec = appset().spec;
    const a = appset({
      template: {
        metadata: { name: '{{cluster}}', labels: { '{{cluster}}-owned': 'true' } },
        spec: { ...spec.template.spec, syncPolicy: { automated: { prune: true }, retry: { limit: 5 } } },
      },
    });
    const app = renderApplicationSet(a, one(docsElements))[0]?.application;
    assert.deepEqual(app?.metadata.labels, { 'engineering-dev-owned': 'true' });
    assert.deepEqual(app?.spec['syncPolicy'], { automated: { prune: true }, retry: { limit: 5 } });
  });

  it('merges a generator template over spec.template as Argo CD documents it (template override example)', () => {
    const a = appset({
      generators: [
        {
          list: {
            elements: [],
            template: {
              metadata: {},
              spec: {
                project: 'default',
                source: {
                  targetRevision: 'HEAD',
                  repoURL: 'https://github.com/argoproj/argo-cd.git',
                  path: 'applicationset/examples/template-override/{{cluster}}-override',
                },
                destination: {},
              },
            },
          },
        },
      ],
    });
    const app = renderApplicationSet(a, one(docsElements))[0]?.application;
    assert.equal(app?.metadata.name, 'engineering-dev-guestbook');
    assert.deepEqual(app?.spec['source'], {
      repoURL: 'https://github.com/argoproj/argo-cd.git',
      targetRevision: 'HEAD',
      path: 'applicationset/examples/template-override/engineering-dev-override',
    });
    assert.deepEqual(app?.spec['destination'], { server: 'https://1.2.3.4', namespace: 'guestbook' });
  });

  it('applies the Argo CD templatePatch documentation example', () => {
    const a = appset({
      goTemplate: true,
      template: {
        metadata: { name: '{{.cluster}}-deployment' },
        spec: {
          project: 'default',
          source: { repoURL: 'https://github.com/infra-team/cluster-deployments.git', targetRevision: 'HEAD', path: 'guestbook/{{ .cluster }}' },
          destination: { server: '{{.url}}', namespace: 'guestbook' },
        },
      },
      templatePatch: [
        'spec:',
        '  source:',
        '    helm:',
        '      valueFiles:',
        '      {{- range $valueFile := .valueFiles }}',
        '        - {{ $valueFile }}',
        '      {{- end }}',
        '{{- if .autoSync }}',
        '  syncPolicy:',
        '    automated:',
        '      prune: {{ .prune }}',
        '{{- end }}',
        '',
      ].join('\n'),
    });
    const params = [
      {
        cluster: 'engineering-dev',
        url: 'https://kubernetes.default.svc',
        autoSync: true,
        prune: true,
        valueFiles: ['values.large.yaml', 'values.debug.yaml'],
      },
      { cluster: 'engineering-prod', url: 'https://kubernetes.default.svc', autoSync: false, prune: false, valueFiles: [] },
    ];
    const [dev, prod] = renderApplicationSet(a, one(params)).map((r) => r.application);
    assert.deepEqual(dev?.spec['source'], {
      repoURL: 'https://github.com/infra-team/cluster-deployments.git',
      targetRevision: 'HEAD',
      path: 'guestbook/engineering-dev',
      helm: { valueFiles: ['values.large.yaml', 'values.debug.yaml'] },
    });
    assert.deepEqual(dev?.spec['syncPolicy'], { automated: { prune: true } });
    assert.equal(prod?.spec['syncPolicy'], undefined);
    // An empty range leaves `valueFiles:` null, a null in a patch deletes the key (strategic merge), and the
    // helm block left empty is removed, as Argo CD's NormalizeApplicationSpec removes it.
    assert.equal((prod?.spec['source'] as Record<string, unknown>)['helm'], undefined);
  });

  it('templatePatch: null deletes, maps merge, lists replace, finalizers are added to', () => {
    const a = appset({ templatePatch: 'metadata:\n  finalizers: [extra.io/f]\n  labels: {a: b}\nspec:\n  source:\n    targetRevision: null\n' });
    const app = renderApplicationSet(a, one(docsElements))[0]?.application;
    // A strategic merge puts the patch's new items before the ones only the template had (as Argo CD stores them).
    assert.deepEqual(app?.metadata.finalizers, ['extra.io/f', 'resources-finalizer.argocd.argoproj.io']);
    assert.deepEqual(app?.metadata.labels, { a: 'b' });
    assert.equal((app?.spec['source'] as Record<string, unknown>)['targetRevision'], undefined);
  });

  it('refuses a templatePatch that changes spec.project', () => {
    for (const patch of ['spec:\n  project: admin\n', 'spec:\n  project: null\n']) {
      assert.throws(
        () => renderApplicationSet(appset({ templatePatch: patch }), one(docsElements)),
        /templatePatch: templatePatch cannot change spec\.project; set it in spec\.template/,
      );
    }
  });

  it('refuses a templatePatch that is not a YAML mapping, naming the field', () => {
    assert.throws(
      () => renderApplicationSet(appset({ templatePatch: '- a\n' }), one(docsElements)),
      /templatePatch: the rendered patch must be a YAML mapping/,
    );
    assert.throws(() => renderApplicationSet(appset({ templatePatch: 'a: [\n' }), one(docsElements)), /templatePatch: the rendered patch is not valid YAML/);
  });
});

describe('renderApplicationSet errors say what to fix', () => {
  it('a missing parameter names the generator, the parameter set, the field and the parameter; nothing is returned', () => {
    assert.throws(
      () => renderApplicationSet(appset(), one([docsElements[0] ?? {}, { cluster: 'x' }])),
      (e: unknown) => {
        assert.ok(e instanceof ApplicationRenderError);
        assert.equal(
          e.message,
          `spec.generators[0] parameter set 1 {"cluster":"x"}: spec.destination.server: parameter 'url' is missing from the parameter set`,
        );
        return true;
      },
    );
  });

  it('the opt-out annotation keeps unknown placeholders as Argo CD does', () => {
    const a = appset({}, { 'appset-controller/missing-parameters': 'keep' });
    assert.equal(
      renderApplicationSet(a, one([{ cluster: 'x' }]))[0]?.application.spec['destination'] &&
        (renderApplicationSet(a, one([{ cluster: 'x' }]))[0]?.application.spec['destination'] as Record<string, unknown>)['server'],
      '{{url}}',
    );
  });

  it('a bad opt-out value is an error naming the annotation', () => {
    assert.throws(
      () => renderApplicationSet(appset({}, { 'appset-controller/missing-parameters': 'yes' }), one(docsElements)),
      /metadata\.annotations: annotation appset-controller\/missing-parameters must be 'error' \(the default\) or 'keep', not 'yes'/,
    );
  });

  it('goTemplateOptions missingkey=error is honoured even with the opt-out, and unknown options are refused', () => {
    const spec = appset().spec;
    const template = { ...spec.template, metadata: { name: '{{ .cluster | default "x" }}' } };
    const base = { goTemplate: true, template: { ...template, spec: { project: 'default', destination: { server: 'https://x', namespace: 'n' } } } };
    assert.equal(
      renderApplicationSet(appset(base, { 'appset-controller/missing-parameters': 'keep' }), one([{ other: 'y' }]))[0]?.application.metadata.name,
      'x',
    );
    assert.throws(
      () =>
        renderApplicationSet(
          appset({ ...base, goTemplateOptions: ['missingkey=error'] }, { 'appset-controller/missing-parameters': 'keep' }),
          one([{ other: 'y' }]),
        ),
      /metadata\.name: parameter '\.cluster' is missing from the parameter set \(missingkey=error\)/,
    );
    assert.throws(
      () => renderApplicationSet(appset({ ...base, goTemplateOptions: ['missingkey=explode'] }), one([{}])),
      /spec\.goTemplateOptions: unknown option 'missingkey=explode'/,
    );
  });

  const invalid: [string, ParamSet, RegExp][] = [
    [
      'an invalid name',
      { cluster: 'Engineering_Dev' },
      /metadata\.name: the Application name 'Engineering_Dev-guestbook' must consist of lowercase letters.*normalize/,
    ],
    [
      'a name longer than 253',
      { cluster: 'a'.repeat(250) },
      /metadata\.name: the Application name 'a+-guestbook' is 260 characters long; at most 253 are allowed/,
    ],
  ];
  for (const [title, params, message] of invalid) {
    it(`refuses ${title}`, () => assert.throws(() => renderApplicationSet(appset(), one([{ url: 'https://x', ...params }])), message));
  }

  it('refuses invalid label values and keys', () => {
    const spec = appset().spec;
    const labelled = (labels: Record<string, string>) => appset({ template: { ...spec.template, metadata: { name: '{{cluster}}', labels } } });
    assert.throws(
      () => renderApplicationSet(labelled({ env: '{{cluster}}' }), one([{ cluster: 'a'.repeat(64), url: 'https://x' }])),
      /metadata\.labels: the value 'a{64}' of label 'env' is 64 characters long; at most 63 are allowed/,
    );
    assert.throws(
      () => renderApplicationSet(labelled({ env: '{{url}}' }), one([{ cluster: 'a', url: 'https://x' }])),
      /the value 'https:\/\/x' of label 'env' must be empty or consist of letters/,
    );
    assert.throws(() => renderApplicationSet(labelled({ '{{url}}': 'v' }), one([{ cluster: 'a', url: 'bad key' }])), /the label key 'bad key' must consist of/);
    assert.equal(renderApplicationSet(labelled({ 'app.kubernetes.io/name': '{{cluster}}', empty: '' }), one([{ cluster: 'a', url: 'https://x' }])).length, 1);
  });

  it('refuses an Application without spec.project or spec.destination', () => {
    const noProject = appset({ template: { metadata: { name: '{{cluster}}' }, spec: { destination: { server: 'https://x' } } } });
    assert.throws(() => renderApplicationSet(noProject, one(docsElements)), /spec\.project: spec\.project is required/);
    const noDestination = appset({ template: { metadata: { name: '{{cluster}}' }, spec: { project: 'default' } } });
    assert.throws(() => renderApplicationSet(noDestination, one(docsElements)), /spec\.destination: spec\.destination is required/);
    const emptyDestination = appset({ template: { metadata: { name: '{{cluster}}' }, spec: { project: 'default', destination: { namespace: 'x' } } } });
    assert.throws(() => renderApplicationSet(emptyDestination, one(docsElements)), /spec\.destination needs a server or a name/);
  });

  it('two parameter sets rendering the same name is an error naming both', () => {
    const outputs = [
      { generatorIndex: 0, params: [{ cluster: 'dev', url: 'https://a' }] },
      {
        generatorIndex: 1,
        params: [
          { cluster: 'prod', url: 'https://b' },
          { cluster: 'dev', url: 'https://c' },
        ],
      },
    ];
    const a = appset({ generators: [{ list: { elements: [] } }, { list: { elements: [] } }] });
    assert.throws(
      () => renderApplicationSet(a, outputs),
      (e: unknown) => {
        assert.ok(e instanceof RenderError);
        assert.equal(
          e.message,
          `metadata.name: two parameter sets render the same Application name 'dev-guestbook': spec.generators[0] parameter set 0 {"cluster":"dev","url":"https://a"} and spec.generators[1] parameter set 1 {"cluster":"dev","url":"https://c"}`,
        );
        return true;
      },
    );
  });
});

describe('Argo CD parity: rendering', () => {
  it('a parameter set without parameters (a list element `{}`) leaves the template as written, with no finalizer', () => {
    const template = {
      metadata: { name: 'static', annotations: { keep: '{{name}}' } },
      spec: { project: 'default', destination: { server: 'https://x', namespace: 'n' } },
    };
    const [rendered] = renderApplicationSet(appset({ template }), one([{}]));
    assert.equal(rendered?.application.metadata.finalizers, undefined);
    assert.deepEqual(rendered?.application.metadata.annotations, { keep: '{{name}}' });
  });
  it('a templatePatch is YAML 1.1: `yes` and `on` are true, quoted ones stay strings', () => {
    const [rendered] = renderApplicationSet(
      appset({ templatePatch: 'spec:\n  syncPolicy:\n    automated: {prune: yes, selfHeal: on}\nmetadata:\n  labels: {quoted: "yes"}\n' }),
      one(docsElements),
    );
    assert.deepEqual(rendered?.application.spec['syncPolicy'], { automated: { prune: true, selfHeal: true } });
    assert.equal(rendered?.application.metadata.labels?.['quoted'], 'yes');
  });
});
