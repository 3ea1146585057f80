import { PluginError } from './errors.js';

/** One parameter set a plugin returned: a JSON object, values of any JSON type. */
export type PluginParameters = Readonly<Record<string, unknown>>;

/**
 * `output.parameters` of a plugin's answer, every element an object. Stricter than Argo CD, which reads an
 * empty body or `{}` as "no parameter sets": a plugin that answers nothing by mistake must not delete every
 * Application, so a missing `output.parameters` is an error here; an empty list is a real answer.
 */
export function readPluginAnswer(body: unknown, where: string): PluginParameters[] {
  const parsed = typeof body === 'string' ? parseJson(body, where) : body;
  if (parsed === undefined) throw new PluginError(`${where}: the plugin's answer is empty; expected {"output": {"parameters": [...]}}`);
  const output = isObject(parsed) ? parsed['output'] : undefined;
  const parameters = isObject(output) ? output['parameters'] : undefined;
  if (!Array.isArray(parameters)) {
    throw new PluginError(`${where}: the plugin's answer has no output.parameters list; expected {"output": {"parameters": [...]}}`);
  }
  parameters.forEach((set, i) => {
    if (!isObject(set)) throw new PluginError(`${where}: output.parameters[${i}] of the plugin's answer is not an object (${describe(set)})`);
  });
  return parameters as PluginParameters[];
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PluginError(`${where}: the plugin's answer is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : typeof value;
}
