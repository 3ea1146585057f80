import { RenderError } from './renderer.js';
import { isPlainMap } from './plain-values.js';

/** Checks every rendered Application before anything is written: names, labels, project and destination. */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL}(\\.${DNS1123_LABEL})*$`);
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Why `name` is not a DNS-1123 subdomain, or undefined if it is one. */
export function dnsSubdomainProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > 253) return `is ${name.length} characters long; at most 253 are allowed`;
  if (!DNS1123_SUBDOMAIN.test(name))
    return "must consist of lowercase letters, digits, '-' and '.', and start and end with a letter or digit (a DNS-1123 subdomain); the normalize helper makes any text valid";
  return undefined;
}

/** Why `value` is not a valid label value, or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return `is ${value.length} characters long; at most 63 are allowed`;
  if (!LABEL_VALUE.test(value)) return "must be empty or consist of letters, digits, '-', '_' and '.', starting and ending with a letter or digit";
  return undefined;
}

/** Why `key` is not a valid label key (`[prefix/]name`), or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && dnsSubdomainProblem(prefix)) return `has the prefix '${prefix}', which ${dnsSubdomainProblem(prefix) ?? ''}`;
  if (name.length === 0 || name.length > 63) return 'must have a name part of 1 to 63 characters';
  if (!QUALIFIED_NAME.test(name)) return "must consist of letters, digits, '-', '_' and '.', starting and ending with a letter or digit";
  return undefined;
}

/** Throws a RenderError naming the field if the rendered Application is not valid. */
export function validateApplication(app: Record<string, unknown>): void {
  const metadata = isPlainMap(app['metadata']) ? app['metadata'] : {};
  const name = metadata['name'];
  if (typeof name !== 'string') throw new RenderError('the Application has no name', 'metadata.name');
  const nameProblem = dnsSubdomainProblem(name);
  if (nameProblem) throw new RenderError(`the Application name '${name}' ${nameProblem}`, 'metadata.name');
  const labels = metadata['labels'];
  if (labels !== undefined && labels !== null) {
    if (!isPlainMap(labels)) throw new RenderError('labels must be a map of strings', 'metadata.labels');
    for (const [key, value] of Object.entries(labels)) {
      const keyProblem = labelKeyProblem(key);
      if (keyProblem) throw new RenderError(`the label key '${key}' ${keyProblem}`, 'metadata.labels');
      if (typeof value !== 'string') throw new RenderError(`the label '${key}' must be a string`, 'metadata.labels');
      const valueProblem = labelValueProblem(value);
      if (valueProblem) throw new RenderError(`the value '${value}' of label '${key}' ${valueProblem}`, 'metadata.labels');
    }
  }
  const spec = isPlainMap(app['spec']) ? app['spec'] : {};
  const project = spec['project'];
  if (typeof project !== 'string' || project === '') throw new RenderError('spec.project is required (the AppProject of the Application)', 'spec.project');
  const destination = spec['destination'];
  if (!isPlainMap(destination)) throw new RenderError('spec.destination is required (server or name, and namespace)', 'spec.destination');
  const server = destination['server'];
  const cluster = destination['name'];
  if (!(typeof server === 'string' && server !== '') && !(typeof cluster === 'string' && cluster !== '')) {
    throw new RenderError('spec.destination needs a server or a name', 'spec.destination');
  }
}
