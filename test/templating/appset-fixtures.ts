import type { ParamSet } from '../../src/model/params.js';
import type { ApplicationSetForRender } from '../../src/model/applicationset-types.js';

/** An ApplicationSet for renderer tests; `spec` fields override the list-generator default. */
export function appset(spec: Partial<ApplicationSetForRender['spec']> = {}, annotations?: Record<string, string>): ApplicationSetForRender {
  return {
    metadata: { name: 'guestbook', namespace: 'team-a', ...(annotations ? { annotations } : {}) },
    spec: {
      generators: [{ list: { elements: [] } }],
      template: {
        metadata: { name: '{{cluster}}-guestbook' },
        spec: {
          project: 'default',
          source: {
            repoURL: 'https://github.com/argoproj/argo-cd.git',
            targetRevision: 'HEAD',
            path: 'applicationset/examples/list-generator/guestbook/{{cluster}}',
          },
          destination: { server: '{{url}}', namespace: 'guestbook' },
        },
      },
      ...spec,
    },
  };
}

/** The list generator elements of Argo CD's documentation. */
export const docsElements: ParamSet[] = [
  { cluster: 'engineering-dev', url: 'https://1.2.3.4' },
  { cluster: 'engineering-prod', url: 'https://2.4.6.8' },
];
