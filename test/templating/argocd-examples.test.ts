import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParamSet } from '../../src/model/params.js';
import type { ApplicationSetForRender, ApplicationTemplate } from '../../src/model/applicationset-types.js';
import { renderApplicationSet } from '../../src/templating/render-applicationset.js';
import { clusterParams, gitDirectoryParams } from './render-string.js';

/** Argo CD documentation examples, each written in both styles, must render to the same Applications. */

function appsetWith(template: ApplicationTemplate, goTemplate: boolean, goTemplateOptions: string[] = []): ApplicationSetForRender {
  return { metadata: { name: 'docs', namespace: 'argocd' }, spec: { goTemplate, goTemplateOptions, generators: [{ git: {} }], template } };
}

function renderBoth(fast: ApplicationTemplate, go: ApplicationTemplate, params: ParamSet[], goOptions: string[] = []) {
  const outputs = [{ generatorIndex: 0, params }];
  const a = renderApplicationSet(appsetWith(fast, false), outputs).map((r) => r.application);
  const b = renderApplicationSet(appsetWith(go, true, goOptions), outputs).map((r) => r.application);
  assert.deepEqual(a, b, 'both styles render the same Applications');
  return a;
}

describe('Argo CD documentation examples in both styles', () => {
  it('Git directory generator (cluster-addons)', () => {
    const spec = (path: string, name: string) => ({
      metadata: { name },
      spec: {
        project: 'my-project',
        source: { repoURL: 'https://github.com/argoproj/argo-cd.git', targetRevision: 'HEAD', path },
        destination: { server: 'https://kubernetes.default.svc', namespace: name },
      },
    });
    const [app] = renderBoth(spec('{{path}}', '{{path.basename}}'), spec('{{.path.path}}', '{{.path.basename}}'), [gitDirectoryParams]);
    assert.equal(app?.metadata.name, 'guestbook');
    assert.equal((app?.spec['source'] as Record<string, unknown>)['path'], 'apps/guestbook');
    assert.equal((app?.spec['destination'] as Record<string, unknown>)['namespace'], 'guestbook');
  });

  it('Git directory generator with path segments and normalized names', () => {
    const t = (name: string, ns: string) => ({
      metadata: { name },
      spec: { project: 'default', destination: { server: 'https://kubernetes.default.svc', namespace: ns } },
    });
    const [app] = renderBoth(
      t('{{path[0]}}-{{path.basenameNormalized}}', '{{path[1]}}'),
      t('{{index .path.segments 0}}-{{.path.basenameNormalized}}', '{{index .path.segments 1}}'),
      [gitDirectoryParams],
    );
    assert.equal(app?.metadata.name, 'apps-guestbook');
  });

  it('Cluster generator with labels (guestbook per cluster)', () => {
    const t = (name: string, server: string, env: string) => ({
      metadata: { name, labels: { environment: env } },
      spec: {
        project: 'default',
        source: { repoURL: 'https://github.com/argoproj/argocd-example-apps/', targetRevision: 'HEAD', path: 'guestbook' },
        destination: { server, namespace: 'guestbook' },
      },
    });
    const [app] = renderBoth(
      t('{{name}}-guestbook', '{{server}}', '{{metadata.labels.environment}}'),
      t('{{.name}}-guestbook', '{{.server}}', '{{index .metadata.labels "environment"}}'),
      [clusterParams],
      ['missingkey=error'],
    );
    assert.equal(app?.metadata.name, 'staging-east-guestbook');
    assert.deepEqual(app?.metadata.labels, { environment: 'staging' });
    assert.equal((app?.spec['destination'] as Record<string, unknown>)['server'], 'https://10.0.0.1:6443');
  });

  it('List generator with values', () => {
    const t = (name: string, ns: string) => ({
      metadata: { name },
      spec: { project: 'default', destination: { server: 'https://kubernetes.default.svc', namespace: ns } },
    });
    const params = [{ cluster: 'engineering-dev', url: 'https://kubernetes.default.svc', values: { namespace: 'team-dev' } }];
    const [app] = renderBoth(t('{{cluster}}-guestbook', '{{values.namespace}}'), t('{{.cluster}}-guestbook', '{{.values.namespace}}'), params);
    assert.equal((app?.spec['destination'] as Record<string, unknown>)['namespace'], 'team-dev');
  });
});
