// What the webhook end-to-end tests share: the ApplicationSet a push should wake, and a signed GitHub push.
import { createHmac } from 'node:crypto';

/** An ApplicationSet with one git-directory generator over `repoURL` that polls only hourly: only a push explains a quick update. */
export function hookedAppSet(repoURL: string): Record<string, unknown> {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'hooked' },
    spec: {
      goTemplate: true,
      generators: [{ git: { repoURL, revision: 'HEAD', requeueAfterSeconds: 3600, directories: [{ path: 'apps/*' }] } }],
      template: {
        metadata: { name: 'hooked-{{.path.basename}}' },
        spec: {
          project: 'default',
          source: { repoURL, path: '{{.path.path}}', targetRevision: 'HEAD' },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{.path.basename}}' },
        },
      },
    },
  };
}

/** POSTs a GitHub push of `ref` in the repository at `repoURL` to the controller on `port`, signed with `secret`. */
export function signedPush(port: number, repoURL: string, ref: string, secret: string): Promise<Response> {
  const body = JSON.stringify({ ref, repository: { html_url: repoURL.replace(/\.git$/, ''), default_branch: 'main' } });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  return fetch(`http://127.0.0.1:${port}/api/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${signature}` },
    body,
  });
}
