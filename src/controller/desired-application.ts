import { ARGOPROJ_API_VERSION, ownerReferenceTo, type Application, type ApplicationSetIdentity } from './objects.js';

/** The finalizer that makes Argo CD delete an Application's resources along with the Application. */
export const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/** A rendered Application template: what the renderer produces for one parameter set. */
export interface RenderedApplication {
  readonly metadata: {
    readonly name: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly finalizers?: readonly string[];
  };
  readonly spec: Readonly<Record<string, unknown>>;
}

/**
 * The Application an ApplicationSet wants: in the ApplicationSet's namespace, controlled by it, and
 * with the resources finalizer unless `preserveResourcesOnDeletion` is set or the template lists
 * finalizers of its own (Argo CD's rule).
 */
export function desiredApplication(rendered: RenderedApplication, appset: ApplicationSetIdentity, preserveResourcesOnDeletion: boolean): Application {
  const templated = rendered.metadata.finalizers ?? [];
  const finalizers = templated.length > 0 ? [...templated] : preserveResourcesOnDeletion ? [] : [RESOURCES_FINALIZER];
  return {
    apiVersion: ARGOPROJ_API_VERSION,
    kind: 'Application',
    metadata: {
      name: rendered.metadata.name,
      namespace: appset.namespace,
      ...(rendered.metadata.labels ? { labels: { ...rendered.metadata.labels } } : {}),
      ...(rendered.metadata.annotations ? { annotations: { ...rendered.metadata.annotations } } : {}),
      ...(finalizers.length > 0 ? { finalizers } : {}),
      ownerReferences: [ownerReferenceTo(appset)],
    },
    spec: structuredClone(rendered.spec),
  };
}
