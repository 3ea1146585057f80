import { TerminalError } from '../model/action.js';

/** A generator spec that cannot work as written; retrying cannot fix it, the user must. */
export class GeneratorSpecError extends TerminalError {
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
  }
}

/** A plain JSON object (not an array, not null). */
export type JsonObject = { [key: string]: unknown };

/** True for a plain object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as an object, or a spec error naming `field`. */
export function readObject(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw new GeneratorSpecError(field, `must be an object, got ${describe(value)}`);
  return value;
}

/** `value` as an array (absent = empty), or a spec error. */
export function readArray(value: unknown, field: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new GeneratorSpecError(field, `must be a list, got ${describe(value)}`);
  return value;
}

/** A required non-empty string. */
export function readString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new GeneratorSpecError(field, `must be a non-empty string, got ${describe(value)}`);
  return value;
}

/** An optional string (absent = `fallback`). */
export function readOptionalString(value: unknown, field: string, fallback = ''): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw new GeneratorSpecError(field, `must be a string, got ${describe(value)}`);
  return value;
}

/** An optional boolean (absent = false). */
export function readBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new GeneratorSpecError(field, `must be true or false, got ${describe(value)}`);
  return value;
}

/** An optional map of strings (Argo CD's `values`, `matchLabels`). */
export function readStringMap(value: unknown, field: string): Readonly<Record<string, string>> {
  if (value === undefined || value === null) return {};
  const object = readObject(value, field);
  for (const [key, v] of Object.entries(object)) {
    if (typeof v !== 'string') throw new GeneratorSpecError(`${field}.${key}`, `must be a string, got ${describe(v)}`);
  }
  return object as Record<string, string>;
}

/** An optional non-negative integer number of seconds. */
export function readOptionalSeconds(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new GeneratorSpecError(field, `must be a non-negative whole number of seconds, got ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return typeof value;
}
