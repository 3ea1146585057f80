import type { FieldError } from './field-error.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

type GoType = 'string' | 'int64' | 'bool' | 'time' | 'map[string]string' | '[]string' | 'raw' | { readonly list: Readonly<Record<string, GoType>> };

const OWNER_REFERENCE: Readonly<Record<string, GoType>> = {
  apiVersion: 'string',
  kind: 'string',
  name: 'string',
  uid: 'string',
  controller: 'bool',
  blockOwnerDeletion: 'bool',
};
const MANAGED_FIELDS_ENTRY: Readonly<Record<string, GoType>> = {
  manager: 'string',
  operation: 'string',
  apiVersion: 'string',
  time: 'time',
  fieldsType: 'string',
  fieldsV1: 'raw',
  subresource: 'string',
};

/** metav1.ObjectMeta's JSON fields and their Go types. */
const OBJECT_META: Readonly<Record<string, GoType>> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'int64',
  labels: 'map[string]string',
  annotations: 'map[string]string',
  ownerReferences: { list: OWNER_REFERENCE },
  finalizers: '[]string',
  managedFields: { list: MANAGED_FIELDS_ENTRY },
};

/** What decoding `metadata` into a Go ObjectMeta gives: a type error (the request fails on it alone), or the unknown fields. */
export type MetadataDecoding = { readonly typeError: string } | { readonly unknownFields: readonly string[] };

/**
 * Decodes `metadata` as the API server does (strictly, into metav1.ObjectMeta): a value of the wrong JSON type
 * fails the whole request with Go's decoding error; fields ObjectMeta lacks are unknown fields. Null is always fine.
 */
export function decodeMetadata(metadata: unknown): MetadataDecoding {
  const unknownFields: string[] = [];
  const typeError = decodeStruct(metadata, OBJECT_META, 'metadata', '', unknownFields);
  return typeError ? { typeError } : { unknownFields };
}

/** `goPath` is the field as Go's decoder names it below ObjectMeta (`labels`, `ownerReferences`); `path` is ours. */
function decodeStruct(value: unknown, fields: Readonly<Record<string, GoType>>, path: string, goPath: string, unknown: string[]): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isObject(value)) return cannotUnmarshal(value, path, goPath, 'struct');
  for (const [key, item] of Object.entries(value)) {
    const type = fields[key];
    if (type === undefined) {
      unknown.push(`${path}.${key}`);
      continue;
    }
    const problem = decodeField(item, type, `${path}.${key}`, goPath === '' ? key : `${goPath}.${key}`, unknown);
    if (problem) return problem;
  }
  return undefined;
}

/** Whether a JSON value decodes into each Go type. */
const FITS: Record<Exclude<GoType, object>, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  int64: (v) => typeof v === 'number' && Number.isInteger(v),
  bool: (v) => typeof v === 'boolean',
  time: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  'map[string]string': (v) => isObject(v) && Object.values(v).every((s) => s === null || typeof s === 'string'),
  '[]string': (v) => Array.isArray(v) && v.every((s) => s === null || typeof s === 'string'),
  raw: () => true,
};

function decodeField(value: unknown, type: GoType, path: string, goPath: string, unknown: string[]): string | undefined {
  if (value === null || type === 'raw') return undefined;
  if (typeof type === 'object') {
    if (!Array.isArray(value)) return cannotUnmarshal(value, path, goPath, 'list');
    for (const [i, item] of value.entries()) {
      const problem = decodeStruct(item, type.list, `${path}[${i}]`, goPath, unknown);
      if (problem) return problem;
    }
    return undefined;
  }

  return FITS[type](value) ? undefined : cannotUnmarshal(value, path, goPath, type);
}

/** `path: ` and Go's decoding error, which names the field below ObjectMeta. */
function cannotUnmarshal(value: unknown, path: string, goPath: string, type: string): string {
  const json =
    typeof value === 'string'
      ? 'string'
      : typeof value === 'number'
        ? 'number'
        : typeof value === 'boolean'
          ? 'bool'
          : Array.isArray(value)
            ? 'array'
            : 'object';
  const field = goPath === '' ? 'Go value' : `Go struct field ObjectMeta.${goPath}`;
  return `${path}: json: cannot unmarshal ${json} into ${field} of type ${goPath === '' ? 'v1.ObjectMeta' : type}`;
}

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const LABEL_KEY = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${LABEL_KEY})?`;
const SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE}$`);
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

function regexError(message: string, regex: string, ...examples: string[]): string {
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${regex}')`;
}

/** apimachinery's IsDNS1123Subdomain. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > 253) errors.push('must be no more than 253 bytes');
  if (!SUBDOMAIN_RE.test(value))
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  return errors;
}

/** apimachinery's IsDNS1123Label (a namespace name). */
function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > 63) errors.push('must be no more than 63 bytes');
  if (!LABEL_RE.test(value)) {
    if (SUBDOMAIN_RE.test(value)) errors.push('must not contain dots');
    else
      errors.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errors;
}

const LABEL_KEY_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** apimachinery's IsQualifiedName (a label or annotation key, a finalizer). */
export function qualifiedNameErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2)
    return [
      `a valid label key ${regexError(LABEL_KEY_MESSAGE, LABEL_KEY, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const name = parts[parts.length - 1] ?? '';
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (bytes(name) > 63) errors.push('name part must be no more than 63 bytes');
  if (!LABEL_KEY_RE.test(name)) errors.push(`name part ${regexError(LABEL_KEY_MESSAGE, LABEL_KEY, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > 63) errors.push('must be no more than 63 bytes');
  if (!LABEL_VALUE_RE.test(value))
    errors.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errors;
}

const stringsOf = (value: unknown): Record<string, string> =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : ''])) : {};

/**
 * What the API server checks of a namespaced custom resource's decoded metadata on create: the name (a DNS-1123
 * subdomain, or a generateName), the namespace, the generation, label keys and values, annotation keys and their
 * total size, finalizer names. Owner references and managed fields are not checked here.
 */
export function objectMetaErrors(metadata: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const text = (key: string): string => {
    const value = metadata[key];
    return typeof value === 'string' ? value : '';
  };
  const invalid = (field: string, value: unknown, details: readonly string[]): void =>
    void errors.push(...details.map((detail) => ({ type: 'Invalid value' as const, field, value, detail })));
  const generateName = text('generateName');
  if (generateName !== '') invalid('metadata.generateName', generateName, dns1123SubdomainErrors(maskTrailingDash(generateName)));
  const name = text('name');
  if (name === '') errors.push({ type: 'Required value', field: 'metadata.name', detail: 'name or generateName is required' });
  else invalid('metadata.name', name, dns1123SubdomainErrors(name));
  const namespace = text('namespace');
  if (namespace === '') errors.push({ type: 'Required value', field: 'metadata.namespace', detail: '' });
  else invalid('metadata.namespace', namespace, dns1123LabelErrors(namespace));
  const generation = metadata['generation'];
  if (typeof generation === 'number' && generation < 0) invalid('metadata.generation', generation, ['must be greater than or equal to 0']);
  for (const [key, value] of Object.entries(stringsOf(metadata['labels']))) {
    invalid('metadata.labels', key, qualifiedNameErrors(key));
    invalid('metadata.labels', value, labelValueErrors(value));
  }
  const annotations = stringsOf(metadata['annotations']);
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    invalid('metadata.annotations', key, qualifiedNameErrors(key.toLowerCase()));
    size += bytes(key) + bytes(value);
  }
  if (size > 256 * 1024) errors.push({ type: 'Too long', field: 'metadata.annotations', detail: `may not be more than ${256 * 1024} bytes` });
  const finalizers = Array.isArray(metadata['finalizers']) ? (metadata['finalizers'] as unknown[]).filter((f): f is string => typeof f === 'string') : [];
  for (const finalizer of finalizers) invalid('metadata.finalizers', finalizer, qualifiedNameErrors(finalizer));
  return errors;
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}
