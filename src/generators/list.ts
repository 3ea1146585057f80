import { parseYaml11 } from '../model/yaml11.js';
import type { ParamSet } from '../model/params.js';
import type { Generator } from './generator.js';
import { isParamSet, toParamSet } from './params.js';
import { GeneratorSpecError, readArray, readObject, readOptionalString } from './spec-reading.js';

/**
 * The list generator: one param set per `elements` entry (nested keys become nested params), then
 * one per entry of `elementsYaml`, a YAML (or JSON) list given as a string.
 */
export const listGenerator: Generator = {
  name: 'list',
  // Through a promise so a bad spec rejects instead of throwing synchronously.
  generate: (spec, ctx) => Promise.resolve(spec).then((s) => listParams(s, ctx.goTemplate)),
};

function listParams(spec: unknown, goTemplate: boolean): ParamSet[] {
  const body = readObject(spec, 'list');
  const fromElements = readArray(body.elements, 'list.elements').map((e, i) => {
    const set = toParamSet(e, `list.elements[${i}]`);
    if (!goTemplate) checkFasttemplateElement(set, `list.elements[${i}]`);
    return set;
  });
  return [...fromElements, ...elementsFromYaml(readOptionalString(body.elementsYaml, 'list.elementsYaml'))];
}

function elementsFromYaml(text: string): ParamSet[] {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = parseYaml11(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new GeneratorSpecError('list.elementsYaml', `is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) throw new GeneratorSpecError('list.elementsYaml', 'must be a YAML list of objects');
  return parsed.map((e, i) => toParamSet(e, `list.elementsYaml[${i}]`));
}

/**
 * As Argo CD: with fasttemplate, every value of an `elements` entry is a string, and `values` a map of
 * strings; anything else is refused there ("error parsing value as string"), so it is refused here, by
 * name. `elementsYaml` entries are not checked, as in Argo CD.
 */
function checkFasttemplateElement(set: ParamSet, field: string): void {
  for (const [key, value] of Object.entries(set)) {
    if (key === 'values' && isParamSet(value)) {
      for (const [name, inner] of Object.entries(value))
        if (typeof inner !== 'string') throw new GeneratorSpecError(`${field}.values.${name}`, notAString(inner));
    } else if (typeof value !== 'string') throw new GeneratorSpecError(`${field}.${key}`, notAString(value));
  }
}

function notAString(value: unknown): string {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a map' : typeof value;
  return `is ${kind}; with fasttemplate every list element value must be a string, as in Argo CD (use goTemplate: true for other types)`;
}
