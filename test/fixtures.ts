import type { KubernetesObject } from '@kubernetes/client-node';

/** A small valid ApplicationSet with a list generator, for tests that need one. */
export function sampleApplicationSet(namespace: string, name = 'guestbook'): KubernetesObject & { spec: Record<string, unknown> } {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace },
    spec: {
      generators: [{ list: { elements: [{ cluster: 'dev', url: 'https://kubernetes.default.svc' }] } }],
      template: {
        metadata: { name: '{{cluster}}-guestbook' },
        spec: {
          project: 'default',
          source: { repoURL: 'https://example.test/apps.git', targetRevision: 'HEAD', path: 'guestbook' },
          destination: { server: '{{url}}', namespace: 'guestbook' },
        },
      },
    },
  };
}

/** A small valid Application, for tests that need one. */
export function sampleApplication(namespace: string, name = 'guestbook'): KubernetesObject & { spec: Record<string, unknown> } {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace },
    spec: {
      project: 'default',
      source: { repoURL: 'https://example.test/apps.git', targetRevision: 'HEAD', path: 'guestbook' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
    },
  };
}
