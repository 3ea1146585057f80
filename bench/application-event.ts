/** One ADDED watch event line of an Application the controller applied, keys in the API server's (sorted) order. */
export function applicationEventLine(i: number): string {
  const name = `set-${String(Math.floor(i / 100)).padStart(3, '0')}-app-${String(i % 100).padStart(3, '0')}`;
  const time = '2026-12-04T10:00:00Z';
  return JSON.stringify({
    type: 'ADDED',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        annotations: { 'appset-controller.io/intent-hash': 'abcdef0123456789abcdef0123456789' },
        creationTimestamp: time,
        finalizers: ['resources-finalizer.argocd.argoproj.io'],
        generation: 1,
        labels: { 'bench.appset/set': name.slice(0, 7) },
        managedFields: [
          {
            apiVersion: 'argoproj.io/v1alpha1',
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:metadata': {
                'f:annotations': { 'f:appset-controller.io/intent-hash': {} },
                'f:finalizers': { 'v:"resources-finalizer.argocd.argoproj.io"': {} },
                'f:labels': { 'f:bench.appset/set': {} },
                'f:ownerReferences': { 'k:{"uid":"0b6f0b6f-0b6f-0b6f-0b6f-0b6f0b6f0b6f"}': {} },
              },
              'f:spec': {
                'f:destination': { 'f:namespace': {}, 'f:server': {} },
                'f:project': {},
                'f:source': { 'f:path': {}, 'f:repoURL': {}, 'f:targetRevision': {} },
                'f:syncPolicy': { 'f:automated': { 'f:prune': {}, 'f:selfHeal': {} }, 'f:syncOptions': {} },
              },
            },
            manager: 'appset-controller',
            operation: 'Apply',
            time,
          },
        ],
        name,
        namespace: 'bench',
        ownerReferences: [
          {
            apiVersion: 'argoproj.io/v1alpha1',
            blockOwnerDeletion: true,
            controller: true,
            kind: 'ApplicationSet',
            name: name.slice(0, 7),
            uid: '0b6f0b6f-0b6f-0b6f-0b6f-0b6f0b6f0b6f',
          },
        ],
        resourceVersion: String(100_000 + i),
        uid: `${String(i).padStart(8, '0')}-0b6f-0b6f-0b6f-0b6f0b6f0b6f`,
      },
      spec: {
        destination: { namespace: name, server: 'https://kubernetes.default.svc' },
        project: 'default',
        source: { path: `apps/${name}`, repoURL: 'http://127.0.0.1:9999/monorepo.git', targetRevision: 'v1' },
        syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
      },
    },
  });
}
