/**
 * A CRD's openAPIV3Schema, compiled into what the API server's pruning and validation read. Only the keywords
 * the validator implements are accepted: a schema that uses another one (CEL rules, defaults, allOf/anyOf/oneOf/
 * not, list-type set/map, embedded resources, string formats other than date-time) is refused when compiled,
 * so nothing is ever silently left unchecked.
 */
export interface Schema {
  /** `type`, or `integer,string` for `x-kubernetes-int-or-string`; empty when the schema names no type. */
  readonly types: readonly string[];
  /** A format the API server keeps (it strips the ones it does not support, such as int64). */
  readonly format: string;
  readonly nullable: boolean;
  readonly preserveUnknownFields: boolean;
  readonly properties?: ReadonlyMap<string, Schema>;
  readonly additionalProperties?: Schema;
  readonly items?: Schema;
  readonly required: readonly string[];
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum: boolean;
  readonly exclusiveMaximum: boolean;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: { readonly source: string; readonly regex: RegExp };
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** Keywords that only document or that change nothing the API server checks on a create. */
const INERT = new Set(['description', 'title', 'example', 'externalDocs', 'x-kubernetes-map-type', 'x-kubernetes-list-map-keys', '$schema', 'id']);

/** Formats the API server keeps and validates (after its own normalisation, which drops `-`); others it strips. */
const KUBE_FORMATS = new Set(
  'bsonobjectid uri email hostname ipv4 ipv6 cidr mac uuid uuid3 uuid4 uuid5 isbn isbn10 isbn13 creditcard ssn hexcolor rgbcolor byte password date duration datetime k8s-short-name k8s-long-name'
    .split(' ')
    .map((f) => f.replaceAll('-', '')),
);

/** The kept formats this validator checks; any other kept format is refused at compile time. */
const CHECKED_FORMATS = new Set(['date-time', 'datetime']);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A schema this validator cannot check faithfully. */
export class UnsupportedSchemaError extends Error {}

/** Compiles an openAPIV3Schema (as written in the CRD); throws UnsupportedSchemaError naming the path and keyword. */
export function compileSchema(raw: unknown, path = 'openAPIV3Schema'): Schema {
  if (!isObject(raw)) throw new UnsupportedSchemaError(`${path} is not an object`);
  refuseUnsupported(raw, path);
  const type = raw['type'];
  const rawFormat = typeof raw['format'] === 'string' ? raw['format'] : '';
  const properties = raw['properties'];
  const additional = raw['additionalProperties'];
  const pattern = raw['pattern'];
  const numbers = Object.fromEntries(NUMBER_KEYWORDS.filter((key) => typeof raw[key] === 'number').map((key) => [key, raw[key] as number]));
  return {
    types: raw['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : typeof type === 'string' && type !== '' ? [type] : [],
    // The API server strips the formats it does not support (int64, int32, double) before validating.
    format: KUBE_FORMATS.has(rawFormat.replaceAll('-', '')) ? rawFormat : '',
    nullable: raw['nullable'] === true,
    preserveUnknownFields: raw['x-kubernetes-preserve-unknown-fields'] === true,
    ...(isObject(properties)
      ? { properties: new Map(Object.entries(properties).map(([name, sub]) => [name, compileSchema(sub, `${path}.properties.${name}`)])) }
      : {}),
    ...(isObject(additional) ? { additionalProperties: compileSchema(additional, `${path}.additionalProperties`) } : {}),
    ...(raw['items'] !== undefined ? { items: compileSchema(raw['items'], `${path}.items`) } : {}),
    required: (raw['required'] as string[] | undefined) ?? [],
    ...(Array.isArray(raw['enum']) ? { enum: raw['enum'] as unknown[] } : {}),
    ...numbers,
    exclusiveMinimum: raw['exclusiveMinimum'] === true,
    exclusiveMaximum: raw['exclusiveMaximum'] === true,
    ...(typeof pattern === 'string' ? { pattern: { source: pattern, regex: goRegExp(pattern, path) } } : {}),
  };
}

const NUMBER_KEYWORDS = ['minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;

/** Throws for a keyword the validator does not implement, or a value of the wrong shape. */
function refuseUnsupported(raw: Record<string, unknown>, path: string): void {
  const refuse = (keyword: string, why = 'is not supported by this validator'): never => {
    throw new UnsupportedSchemaError(`${path}: ${keyword} ${why}`);
  };
  for (const key of Object.keys(raw)) if (!INERT.has(key) && !KNOWN.has(key)) refuse(key);
  const listType = raw['x-kubernetes-list-type'];
  if (listType !== undefined && listType !== 'atomic') refuse(`x-kubernetes-list-type: ${JSON.stringify(listType)}`);
  if (raw['uniqueItems'] === true) refuse('uniqueItems: true');
  if (raw['additionalProperties'] === false) refuse('additionalProperties: false');
  if (raw['type'] !== undefined && typeof raw['type'] !== 'string') refuse('type', 'is not a string');
  if (raw['pattern'] !== undefined && typeof raw['pattern'] !== 'string') refuse('pattern', 'is not a string');
  if (raw['enum'] !== undefined && !Array.isArray(raw['enum'])) refuse('enum', 'is not a list');
  if (raw['properties'] !== undefined && !isObject(raw['properties'])) refuse('properties', 'is not an object');
  const required = raw['required'];
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === 'string'))) refuse('required', 'is not a list of names');
  for (const key of NUMBER_KEYWORDS) if (raw[key] !== undefined && typeof raw[key] !== 'number') refuse(key, 'is not a number');
  const format = typeof raw['format'] === 'string' ? raw['format'] : '';
  if (KUBE_FORMATS.has(format.replaceAll('-', '')) && !CHECKED_FORMATS.has(format)) refuse(`format: ${format}`);
}

/** The keywords compiled above (checked or refused there). */
const KNOWN = new Set([
  'type',
  'format',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'properties',
  'additionalProperties',
  'items',
  'required',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
]);

/** An RE2 pattern as a JavaScript RegExp (the common subset; `u` so that `.` and classes match code points as RE2's do). */
function goRegExp(pattern: string, path: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (error) {
    throw new UnsupportedSchemaError(`${path}: pattern ${JSON.stringify(pattern)} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
