import { createRequire, Module } from 'node:module';

/** A CommonJS module to load only when one of its exports is first read: `specifier` as `requiredBy` resolves it. */
export interface DeferredModule {
  /** A file of the package that requires the module (the module is resolved as that file resolves it). */
  readonly requiredBy: string;
  /** The module, as `requiredBy` names it in its `require` call. */
  readonly specifier: string;
}

/**
 * Modules that the controller's dependencies require when they load, but read only inside functions that a
 * replica does not call as configured here. Measured in an empty Node 24 after importing the replica's modules
 * and collecting: together 1.3 MiB of heap and about 1.2 MiB of resident memory.
 */
export const REPLICA_DEFERRED_MODULES: readonly DeferredModule[] = [
  // BullMQ's job schedulers (repeatable jobs), which the queue does not use; with luxon, about 1 MiB of heap
  { requiredBy: 'bullmq/dist/cjs/classes/job-scheduler.js', specifier: 'cron-parser' },
  // BullMQ's adapter for the node-redis client; the queue connects through ioredis
  { requiredBy: 'bullmq/dist/cjs/classes/redis-connection.js', specifier: './node-redis-client' },
  // BullMQ's adapter for Bun's Redis client; the queue connects through ioredis
  { requiredBy: 'bullmq/dist/cjs/classes/redis-connection.js', specifier: './bun-redis-client' },
  // prom-client's exemplars (trace ids on samples), which the metrics do not enable
  { requiredBy: 'prom-client/lib/metrics/processCpuTotal.js', specifier: '@opentelemetry/api' },
];

/**
 * Puts a stand-in for each module into Node's CommonJS cache, so that requiring it costs nothing until
 * one of its exports is read; then the real module loads and answers from then on. A module that is
 * already loaded, or that its package no longer resolves, is left as it is. Call it before the packages that
 * require these modules load. Returns the files it deferred.
 */
export function deferModuleLoading(modules: readonly DeferredModule[]): string[] {
  const here = createRequire(import.meta.url);
  const deferred: string[] = [];
  for (const { requiredBy, specifier } of modules) {
    let path: string;
    try {
      path = createRequire(here.resolve(requiredBy)).resolve(specifier);
    } catch {
      continue; // A dependency's layout changed: then it loads as it always did.
    }
    if (here.cache[path]) continue;
    here.cache[path] = standIn(path, here);
    deferred.push(path);
  }
  return deferred;
}

/** A loaded-looking module whose exports load the real file at `path` on first use. */
function standIn(path: string, require: NodeJS.Require): NodeJS.Module {
  let real: object | undefined;
  const load = (): object => {
    if (real === undefined) {
      delete require.cache[path];
      real = require(path) as object;
    }
    return real;
  };
  // Every reflective operation forwards, so `tslib`'s export helpers and `in` checks see the real module.
  const exports = new Proxy(Object.create(null) as object, {
    get: (_target, key) => Reflect.get(load(), key) as unknown,
    has: (_target, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      // The stand-in's own target is empty, so a proxy may only report its properties as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  const module = new Module(path);
  module.filename = path;
  module.loaded = true;
  module.exports = exports;
  return module;
}
