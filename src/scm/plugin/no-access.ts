import type { PluginAccess } from './access.js';
import { PluginRequestRefused } from './errors.js';

/** A plugin access that refuses every call: for callers that run generators where no plugin may be reached. */
export function noPluginAccess(why: string): PluginAccess {
  return { call: () => Promise.reject(new PluginRequestRefused(why)) };
}
