import { goQuote, type FieldError } from './field-error.js';
import type { Schema } from './schema.js';

/**
 * Validates a pruned value against its schema as the API server does (kube-openapi's SchemaValidator, turned into
 * field errors by apiextensions-apiserver): the same checks in the same cases, the same paths and messages.
 * `path` is kube-openapi's path: `""` at the root, `spec.generators[0]` below.
 */
export function validateValue(schema: Schema, value: unknown, path: string, errors: FieldError[]): void {
  if (value === null || value === undefined) {
    if (schema.types.length > 0 && !schema.nullable) errors.push(typeError(path, schema.types.join(','), 'null'));
    enumCheck(schema, null, path, errors);
    return;
  }
  const kind = kindOf(value);
  if (schema.types.length > 0 || schema.format !== '') {
    const problem = typeProblem(schema, kind, path);
    if (problem) errors.push(problem);
  }
  if (typeof value === 'string') {
    stringChecks(schema, value, path, errors);
    if (schema.format !== '' && !isDateTime(value)) errors.push(typeError(path, schema.format, value));
  }
  if (typeof value === 'number') numberChecks(schema, value, path, errors);
  if (Array.isArray(value)) {
    if (schema.items) for (const [i, item] of value.entries()) validateValue(schema.items, item, `${path}[${i}]`, errors);
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(invalid(path, value.length, `${path} in body should have at least ${schema.minItems} items`));
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push({ type: 'Too many', field: fieldOf(path), value: value.length, detail: tooMany(schema.maxItems) });
  }
  enumCheck(schema, value, path, errors);
  if (kind === 'object') objectChecks(schema, value as Record<string, unknown>, path, errors);
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** The Go format kube-openapi gives a decoded value (int64 for integers, float64 for other numbers). */
function formatOf(kind: Kind): string {
  return kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
}

/** kube-openapi's typeValidator, including its check of a kept format against a value that is not a string or list. */
function typeProblem(schema: Schema, kind: Kind, path: string): FieldError | undefined {
  const types = schema.types;
  const intAsNumber = kind === 'integer' && types.includes('number');
  if (kind !== 'string' && kind !== 'array' && schema.format !== '' && !(types.includes(kind) || formatOf(kind) === schema.format || intAsNumber)) {
    return typeError(path, schema.format, formatOf(kind));
  }
  if (!(types.includes('number') || types.includes('integer')) && schema.format !== '' && (kind === 'string' || kind === 'array')) return undefined;
  if (!(types.includes(kind) || intAsNumber)) return typeError(path, types.join(','), kind);
  return undefined;
}

function stringChecks(schema: Schema, value: string, path: string, errors: FieldError[]): void {
  // kube-openapi stops at the first failing string check.
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    const unit = schema.maxLength === 1 ? 'byte' : 'bytes';
    errors.push({ type: 'Too long', field: fieldOf(path), detail: `may not be more than ${schema.maxLength} ${unit}` });
  } else if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(invalid(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
  } else if (schema.pattern && !schema.pattern.regex.test(value)) {
    errors.push(invalid(path, value, `${path} in body should match '${schema.pattern.source}'`));
  }
}

function numberChecks(schema: Schema, value: number, path: string, errors: FieldError[]): void {
  // Integers are compared with the bounds truncated to integers, as kube-openapi's native-type checks do.
  const integer = Number.isInteger(value);
  const bound = (b: number): number => (integer ? Math.trunc(b) : b);
  if (schema.multipleOf !== undefined) {
    const factor = integer ? Math.trunc(schema.multipleOf) : schema.multipleOf;
    if (factor <= 0) errors.push(invalid(path, factor, `factor MultipleOf declared for ${path} must be positive: ${factor}`));
    else if (!(integer ? value % factor === 0 : Number.isInteger(factor < 1 ? (1 / factor) * value : value / factor)))
      errors.push(invalid(path, value, `${path} in body should be a multiple of ${factor}`));
  }
  if (schema.minimum !== undefined) {
    const min = bound(schema.minimum);
    if (schema.exclusiveMinimum ? value <= min : value < min)
      errors.push(invalid(path, value, `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${min}`));
  }
  if (schema.maximum !== undefined) {
    const max = bound(schema.maximum);
    if (schema.exclusiveMaximum ? value >= max : value > max)
      errors.push(invalid(path, value, `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${max}`));
  }
}

function enumCheck(schema: Schema, value: unknown, path: string, errors: FieldError[]): void {
  if (!schema.enum || schema.enum.length === 0) return;
  if (schema.enum.some((allowed) => sameValue(allowed, value))) return;
  const supported = schema.enum.map((allowed) => goQuote(typeof allowed === 'string' ? allowed : JSON.stringify(allowed)));
  errors.push({ type: 'Unsupported value', field: fieldOf(path), value, detail: `supported values: ${supported.join(', ')}` });
}

function objectChecks(schema: Schema, value: Record<string, unknown>, path: string, errors: FieldError[]): void {
  const count = Object.keys(value).length;
  if (schema.minProperties !== undefined && count < schema.minProperties)
    errors.push(invalid(path, count, `${path} in body should have at least ${schema.minProperties} properties`));
  if (schema.maxProperties !== undefined && count > schema.maxProperties)
    errors.push({ type: 'Too many', field: fieldOf(path), value: count, detail: tooMany(schema.maxProperties) });
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties?.get(key);
    if (property) validateValue(property, item, path === '' ? key : `${path}.${key}`, errors);
    else if (schema.additionalProperties) validateValue(schema.additionalProperties, item, `${path}.${key}`, errors);
  }
  for (const key of schema.required) if (!(key in value)) errors.push({ type: 'Required value', field: fieldOf(`${path}.${key}`), detail: '' });
}

function typeError(path: string, expected: string, got: string): FieldError {
  return invalid(path, got, `${path} in body must be of type ${expected}: ${goQuote(got)}`);
}

function invalid(path: string, value: unknown, detail: string): FieldError {
  return { type: 'Invalid value', field: fieldOf(path), value, detail };
}

function tooMany(max: number): string {
  return `must have at most ${max} ${max === 1 ? 'item' : 'items'}`;
}

/** The field path apiextensions-apiserver names: kube-openapi's path without a leading dot (`<nil>` at the root). */
function fieldOf(path: string): string {
  return path === '' || path === '.' ? '<nil>' : path.replace(/^\./, '');
}

/** Deep equality of JSON values, as the API server compares a value with an enum's. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    const other = b as Record<string, unknown>;
    return keys.length === Object.keys(other).length && keys.every((k) => k in other && sameValue((a as Record<string, unknown>)[k], other[k]));
  }
  return false;
}

/** RFC 3339 date-time (`format: date-time`), the layouts Kubernetes' strfmt accepts. */
function isDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T')));
}
