import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { formatFieldError, goQuote, type FieldError } from './field-error.js';
import { decodeMetadata, objectMetaErrors } from './object-meta.js';
import { pruneNulls, pruneUnknownFields } from './prune.js';
import { compileSchema, UnsupportedSchemaError, type Schema } from './schema.js';
import { validateValue } from './validate-value.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The API server's answer to creating an object with strict field validation: `accepted`; `bad-request` (HTTP 400:
 * the request body cannot be decoded: unknown fields, a metadata field of the wrong type, a wrong API version);
 * `invalid` (HTTP 422: the decoded object fails validation). One problem per field, each as the API server words it.
 */
export interface SchemaVerdict {
  readonly result: 'accepted' | 'bad-request' | 'invalid';
  readonly problems: readonly string[];
  /** The field each problem names, in the same order. */
  readonly fields: readonly string[];
}

interface ServedVersion {
  readonly schema: Schema;
  /** With a status subresource, a create drops `status` before validating. */
  readonly statusSubresource: boolean;
}

/** Validates custom resources of one CRD as the API server does on a create with `fieldValidation=Strict`. */
export class CrdValidator {
  private constructor(
    readonly group: string,
    readonly kind: string,
    private readonly versions: ReadonlyMap<string, ServedVersion>,
  ) {}

  /** Compiles every served version's schema; throws UnsupportedSchemaError for a schema it cannot check faithfully. */
  static fromCrd(crd: V1CustomResourceDefinition): CrdValidator {
    const versions = new Map<string, ServedVersion>();
    for (const version of crd.spec.versions) {
      if (!version.served) continue;
      const raw = version.schema?.openAPIV3Schema;
      if (raw === undefined) throw new UnsupportedSchemaError(`${crd.metadata?.name ?? crd.spec.names.kind} ${version.name} has no openAPIV3Schema`);
      versions.set(version.name, { schema: compileSchema(raw), statusSubresource: version.subresources?.status !== undefined });
    }
    return new CrdValidator(crd.spec.group, crd.spec.names.kind, versions);
  }

  /** What the API server would answer to a create of `object`. `object` is not changed. */
  check(object: unknown): SchemaVerdict {
    if (!isObject(object)) return badRequest([['<nil>', 'the object is not a JSON object']]);
    const apiVersion = object['apiVersion'];
    const version =
      typeof apiVersion === 'string' && apiVersion.startsWith(`${this.group}/`) ? this.versions.get(apiVersion.slice(this.group.length + 1)) : undefined;
    if (!version) {
      const served = [...this.versions.keys()].map((v) => `${this.group}/${v}`).join(', ');
      return badRequest([['apiVersion', `apiVersion: Invalid value: ${goQuote(String(apiVersion))}: must be ${served} (the served versions of ${this.kind})`]]);
    }
    const copy = structuredClone(object);
    const decoded = decodeMetadata(copy['metadata']);
    if ('typeError' in decoded) return badRequest([[decoded.typeError.slice(0, decoded.typeError.indexOf(':')), decoded.typeError]]);
    const unknown = [...decoded.unknownFields, ...pruneUnknownFields(copy, version.schema)];
    if (unknown.length > 0) return badRequest(unknown.map((path) => [path, `unknown field ${goQuote(path)}`]));
    pruneNulls(copy, version.schema);
    const metadata = isObject(copy['metadata']) ? copy['metadata'] : {};
    if ('metadata' in copy) copy['metadata'] = metadata;
    if (version.statusSubresource) delete copy['status'];
    const errors: FieldError[] = [...objectMetaErrors(metadata)];
    validateValue(version.schema, copy, '', errors);
    if (errors.length === 0) return { result: 'accepted', problems: [], fields: [] };
    return { result: 'invalid', problems: errors.map(formatFieldError), fields: errors.map((e) => e.field) };
  }
}

function badRequest(problems: readonly (readonly [string, string])[]): SchemaVerdict {
  return { result: 'bad-request', problems: problems.map(([, p]) => p), fields: problems.map(([f]) => f) };
}
