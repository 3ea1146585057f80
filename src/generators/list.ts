import { parse as parseYaml } from 'yaml';
import type { ParamSet } from '../model/params.js';
import type { Generator } from './generator.js';
import { toParamSet } from './params.js';
import { GeneratorSpecError, readArray, readObject, readOptionalString } from './spec-reading.js';

/**
 * The list generator: one param set per `elements` entry (nested keys become nested params), then
 * one per entry of `elementsYaml`, a YAML (or JSON) list given as a string.
 */
export const listGenerator: Generator = {
  name: 'list',
  // Through a promise so a bad spec rejects instead of throwing synchronously.
  generate: (spec) => Promise.resolve(spec).then(listParams),
};

function listParams(spec: unknown): ParamSet[] {
  const body = readObject(spec, 'list');
  const fromElements = readArray(body.elements, 'list.elements').map((e, i) => toParamSet(e, `list.elements[${i}]`));
  return [...fromElements, ...elementsFromYaml(readOptionalString(body.elementsYaml, 'list.elementsYaml'))];
}

function elementsFromYaml(text: string): ParamSet[] {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { schema: 'core', maxAliasCount: 100 });
  } catch (error) {
    throw new GeneratorSpecError('list.elementsYaml', `is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) throw new GeneratorSpecError('list.elementsYaml', 'must be a YAML list of objects');
  return parsed.map((e, i) => toParamSet(e, `list.elementsYaml[${i}]`));
}
