// The watch layer's public surface: informers over list+watch, their read-only indexed store and health.
export { createInformer, type Informer, type InformerHandlers, type InformerHealth, type InformerOptions } from './informer.js';
export { NAMESPACE_INDEX, type IndexFunction, type ReadonlyStore } from './store.js';
export { keyOf, objectKey, type Frozen, type KubeObject } from './kube-object.js';
export { DEFAULT_PAGE_SIZE, dropManagedFields, type ReflectorTuning } from './reflector.js';
export type { BackoffOptions } from './backoff.js';
