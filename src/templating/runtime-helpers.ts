import type { HelperOptions } from 'handlebars';
import { MissingParameterError, TemplateProblem } from './template-problem.js';
import { resolveFasttemplateTag } from './fasttemplate.js';
import { TEMPLATE_FUNCTIONS } from './functions.js';
import { functionProblem, RUNTIME } from './runtime-names.js';
import { dataOf, refuseMissing, type TemplateData } from './scope.js';
import { goFormat, GoObject, goTruthy, isPlainMap, MissingValue } from './plain-values.js';

/** The Handlebars helpers that translated templates call. Each reads its mode and budget from `@data`. */

type Helper = (...args: unknown[]) => unknown;

/** Splits Handlebars' trailing options argument from the real arguments. */
function split(args: unknown[]): { values: unknown[]; options: HelperOptions; data: TemplateData } {
  const options = args[args.length - 1] as HelperOptions;
  return { values: args.slice(0, -1), options, data: dataOf(options) };
}

/** Walks field names from `start`; a missing key becomes a MissingValue (or an error with missingkey=error). */
function walkFields(data: TemplateData, start: unknown, prefix: string, names: string[]): unknown {
  let current = start;
  let reference = prefix;
  for (const name of names) {
    reference = `${reference}.${name}`;
    if (current instanceof MissingValue) return current;
    if (isPlainMap(current)) {
      if (Object.hasOwn(current, name)) current = current[name];
      else if (data.scope.missing === 'error') throw new MissingParameterError(reference, ' (missingkey=error)');
      else return new MissingValue(reference);
    } else if (current instanceof GoObject) {
      const value = current.goField(name);
      if (value === undefined) throw new TemplateProblem(`'${reference}': can't evaluate field ${name} in type ${current.goType}`);
      current = value;
    } else {
      const what = current === null || current === undefined ? 'nil' : Array.isArray(current) ? 'a list' : `the ${typeof current} ${goFormat(current)}`;
      throw new TemplateProblem(`'${reference}': cannot read field '${name}' of ${what}`);
    }
  }
  return current;
}

const goField: Helper = (...args) => {
  const { values, data } = split(args);
  const [base, variable, , ...names] = values as string[];
  if (base === 'dot') return walkFields(data, data.goDot, '', names);
  if (base === 'root') return walkFields(data, data.root, '$', names);
  const name = variable ?? '';
  if (!Object.hasOwn(data.goVars, name)) throw new TemplateProblem(`undefined variable '${name}'`);
  return walkFields(data, data.goVars[name], name, names);
};

const goGet: Helper = (...args) => {
  const { values, data } = split(args);
  const [value, , ...names] = values;
  return walkFields(data, value, '(...)', names as string[]);
};

const goPrint: Helper = (...args) => {
  const { values, data } = split(args);
  const [value, where, raw] = values;
  let text: string;
  if (value instanceof MissingValue || value === null || value === undefined) {
    const reference = value instanceof MissingValue ? value.reference : String(where);
    refuseMissing(data.scope, reference, value instanceof MissingValue ? '' : ' (its value is null)');
    text = '<no value>';
  } else text = goFormat(value);
  if (data.scope.patch && raw === true && /[\r\n]/.test(text)) {
    throw new TemplateProblem(
      `${String(where)}: a parameter containing a line break cannot be inserted into templatePatch (it would change the YAML structure); pass it through toJson or quote`,
    );
  }
  data.scope.budget.checkPending(text.length);
  return text;
};

/** Renders a block body with `dot` as Go's `.` and extra variables. */
function renderBody(options: HelperOptions, data: TemplateData, dot: unknown, vars: Record<string, unknown>, self: unknown): string {
  const frame: TemplateData = { ...data, goDot: dot, goVars: { ...data.goVars, ...vars } };
  return options.fn(self, { data: frame });
}

function goIf(this: unknown, ...args: unknown[]): string {
  const { values, options, data } = split(args);
  return goTruthy(values[0]) ? options.fn(this, { data }) : options.inverse(this, { data });
}

function goWith(this: unknown, ...args: unknown[]): string {
  const { values, options, data } = split(args);
  return goTruthy(values[0]) ? renderBody(options, data, values[0], {}, this) : options.inverse(this, { data });
}

function goRange(this: unknown, ...args: unknown[]): string {
  const { values, options, data } = split(args);
  const [collection, indexVar, elementVar] = values as [unknown, string, string];
  const entries: [unknown, unknown][] = Array.isArray(collection)
    ? collection.map((v: unknown, i) => [BigInt(i), v])
    : isPlainMap(collection)
      ? Object.keys(collection)
          .sort()
          .map((k) => [k, collection[k]])
      : [];
  if (!Array.isArray(collection) && !isPlainMap(collection) && goTruthy(collection)) {
    throw new TemplateProblem(`range can't iterate over ${goFormat(collection)}`);
  }
  if (entries.length === 0) return options.inverse(this, { data });
  let out = '';
  for (const [key, element] of entries) {
    data.scope.budget.checkTime();
    const vars: Record<string, unknown> = {};
    if (indexVar) vars[indexVar] = key;
    if (elementVar) vars[elementVar] = element;
    out += renderBody(options, data, element, vars, this);
    data.scope.budget.checkPending(out.length);
  }
  return out;
}

const ftParam: Helper = (...args) => {
  const { values, data } = split(args);
  return fasttemplateParam(data, String(values[0]), values.slice(1) as string[]);
};

/** What `{{tag}}` prints in fasttemplate style (the `ft_param` helper; direct-template.ts calls it without Handlebars). */
export function fasttemplateParam(data: TemplateData, tag: string, segments: string[]): string {
  const value = resolveFasttemplateTag(data.root, tag, segments);
  const usable = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (!usable) {
    const detail = value instanceof MissingValue ? '' : ` (it is ${value === null ? 'null' : 'a map or list'}; fasttemplate inserts only strings)`;
    refuseMissing(data.scope, tag.trim() === '' ? `{{${tag}}}` : tag.trim(), detail);
    return `{{${tag}}}`;
  }
  return goFormat(value);
}

/** Calls a template function by name: missing arguments are refused unless it is a guard; the clock is checked. */
const goCall: Helper = (...args) => {
  const {
    values: [nameArg, ...values],
    data,
  } = split(args);
  const name = String(nameArg);
  const definition = Object.hasOwn(TEMPLATE_FUNCTIONS, name) ? TEMPLATE_FUNCTIONS[name] : undefined;
  if (!definition) throw new TemplateProblem(functionProblem(name) ?? `function '${name}' is not supported`);
  const prepared = values.map((value) => {
    if (!(value instanceof MissingValue) || definition.guard) return value;
    refuseMissing(data.scope, value.reference, ` (passed to '${name}')`);
    return null;
  });
  let result: unknown;
  try {
    result = definition.call(...prepared);
  } catch (error) {
    if (error instanceof TemplateProblem) throw error;
    throw new TemplateProblem(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  data.scope.budget.checkTime();
  return result;
};

/** A Go integer literal (see translate.ts): its decimal text becomes a bigint. */
const goInt: Helper = (...args) => BigInt(String(split(args).values[0]));

/** Every helper to register, by Handlebars helper name. */
export function runtimeHelpers(): Record<string, Helper> {
  const helpers: Record<string, Helper> = {
    [RUNTIME.field]: goField,
    [RUNTIME.get]: goGet,
    [RUNTIME.print]: goPrint,
    [RUNTIME.if]: goIf,
    [RUNTIME.with]: goWith,
    [RUNTIME.range]: goRange,
    [RUNTIME.param]: ftParam,
    [RUNTIME.call]: goCall,
    [RUNTIME.int]: goInt,
  };
  return helpers;
}
