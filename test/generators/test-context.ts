// Test-only helpers for generator tests: a minimal fasttemplate-style interpolation (the real
// Handlebars renderer is wired by the controller) and a context builder.
import type { V1Secret } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { ParamSet } from '../../src/model/params.js';
import type { GitReader } from '../../src/git/git-reader.js';
import type { GeneratorContext, InterpolateOptions } from '../../src/generators/generator.js';
import type { ScmAccess } from '../../src/scm/access.js';
import { noScmAccess } from '../../src/scm/no-access.js';
import { paramAt } from '../../src/generators/params.js';

/**
 * `{{ a.b }}` → the param at `a.b` (strings and numbers only). Unknown references throw, or stay
 * verbatim with `allowUnresolved`, which is the contract the real renderer fulfils.
 */
export function fastTemplate(template: string, params: ParamSet, options: InterpolateOptions): string {
  return template.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) => {
    // Fasttemplate params leave the registry flat (`path.basename` is one name); generators build them nested.
    const value = Object.hasOwn(params, name) ? params[name] : paramAt(params, name);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (options.allowUnresolved) return whole;
    throw new Error(`missing parameter "${name}"`);
  });
}

/** A GitReader that must not be called (for generators that never touch Git). */
export const noGit: GitReader = {
  resolveRevision: () => Promise.reject(new Error('git used unexpectedly')),
  listDirectories: () => Promise.reject(new Error('git used unexpectedly')),
  listFiles: () => Promise.reject(new Error('git used unexpectedly')),
  readFile: () => Promise.reject(new Error('git used unexpectedly')),
};

/** A context with a silent logger and the given Git reader, Secrets and SCM access (default: none reachable). */
export function testContext(
  options: { git?: GitReader; secrets?: readonly V1Secret[]; signal?: AbortSignal; scm?: ScmAccess; goTemplate?: boolean } = {},
): GeneratorContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    log: pino({ level: 'silent' }),
    git: options.git ?? noGit,
    clusterSecrets: () => options.secrets ?? [],
    // goTemplate by default: its params are the nested maps generators produce; pass false for fasttemplate rules.
    goTemplate: options.goTemplate ?? true,
    scm: options.scm ?? noScmAccess('no SCM provider in this test'),
    interpolate: fastTemplate,
  };
}

/** An Argo CD cluster Secret as the API returns it (base64 data). */
export function clusterSecret(
  name: string,
  data: Record<string, string>,
  labels: Record<string, string> = {},
  annotations: Record<string, string> = {},
): V1Secret {
  return {
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels }, annotations },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}
