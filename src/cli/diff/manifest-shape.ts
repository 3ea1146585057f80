import { dnsSubdomainProblem } from '../../templating/validate.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What the API server would refuse in an ApplicationSet manifest before the controller ever saw it: the kind's
 * API version, a valid name and namespace, and the fields crds/applicationset.yaml requires (`spec.generators` as a
 * list of objects, `spec.template` with `metadata` and `spec`). Deeper fields are the controller's to check.
 */
export function manifestProblems(manifest: unknown): string[] {
  if (!isObject(manifest)) return ['is not an object'];
  const problems: string[] = [];
  if (manifest['apiVersion'] !== 'argoproj.io/v1alpha1') problems.push(`apiVersion is ${JSON.stringify(manifest['apiVersion'])}, not "argoproj.io/v1alpha1"`);
  const metadata = manifest['metadata'];
  if (!isObject(metadata)) problems.push('metadata is missing');
  else {
    for (const field of ['name', 'namespace'] as const) {
      const value = metadata[field];
      if (field === 'namespace' && value === undefined) continue;
      const problem = typeof value === 'string' ? dnsSubdomainProblem(value) : 'is missing';
      if (problem) problems.push(`metadata.${field} ${problem}`);
    }
  }
  const spec = manifest['spec'];
  if (!isObject(spec)) return [...problems, 'spec is missing'];
  const generators = spec['generators'];
  if (!Array.isArray(generators)) problems.push('spec.generators must be a list');
  else generators.forEach((entry, i) => void (isObject(entry) ? undefined : problems.push(`spec.generators[${i}] must be an object`)));
  const template = spec['template'];
  if (!isObject(template)) problems.push('spec.template is missing');
  else for (const field of ['metadata', 'spec']) if (!isObject(template[field])) problems.push(`spec.template.${field} must be an object`);
  return problems;
}
