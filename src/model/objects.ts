/** The shapes of the Kubernetes objects the reconciler reads and writes (only the fields it uses). */

/** Group/version of every object this controller owns. */
export const ARGOPROJ_API_VERSION = 'argoproj.io/v1alpha1';

/** An owner reference as Kubernetes stores it. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** Object metadata, as far as the reconciler reads or writes it. */
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly finalizers?: readonly string[];
  readonly ownerReferences?: readonly OwnerReference[];
  readonly deletionTimestamp?: string;
}

/** An Argo CD Application. */
export interface Application {
  readonly apiVersion: string;
  readonly kind: 'Application';
  readonly metadata: ObjectMeta;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly status?: {
    readonly sync?: { readonly status?: string; readonly revision?: string; readonly revisions?: readonly string[] };
    readonly health?: { readonly status?: string };
    readonly operationState?: { readonly phase?: string; readonly startedAt?: string };
  };
  /** A requested operation (a sync) that Argo CD's application controller has not finished yet. */
  readonly operation?: unknown;
}

/** The identity of an ApplicationSet, as owner of its Applications. */
export interface ApplicationSetIdentity {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
}

/** The controller owner reference of `object`, if it has one. */
export function controllerOf(object: { readonly metadata?: Pick<ObjectMeta, 'ownerReferences'> }): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** The owner reference of the ApplicationSet that controls `object`, if an ApplicationSet does: the one reading of it. */
export function controllingApplicationSet(object: { readonly metadata?: Pick<ObjectMeta, 'ownerReferences'> }): OwnerReference | undefined {
  const owner = controllerOf(object);
  return owner?.kind === 'ApplicationSet' && owner.apiVersion === ARGOPROJ_API_VERSION ? owner : undefined;
}

/** True if `app` is controlled by exactly this ApplicationSet (same UID, not just the same name). */
export function isOwnedBy(app: Application, appset: ApplicationSetIdentity): boolean {
  return controllingApplicationSet(app)?.uid === appset.uid;
}

/** The controller owner reference an ApplicationSet puts on each Application it generates. */
export function ownerReferenceTo(appset: ApplicationSetIdentity): OwnerReference {
  return { apiVersion: ARGOPROJ_API_VERSION, kind: 'ApplicationSet', name: appset.name, uid: appset.uid, controller: true, blockOwnerDeletion: true };
}
