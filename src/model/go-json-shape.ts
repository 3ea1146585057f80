/**
 * Go's encoding/json applied to plain JSON data through a Go struct shape: what a Go program holds after
 * json.Unmarshal into the struct and writes back with json.Marshal. Argo CD's controller stores Applications that
 * way, so a template's `prune: false` disappears (omitempty), `directory` gains `jsonnet: {}` (a struct that is not
 * a pointer is always written) and unknown fields are gone.
 */

/** A Go type as encoding/json sees it; `any` is an interface or a type that marshals itself (kept as it is). */
export type GoType =
  'string' | 'bool' | 'number' | 'any' | { readonly ptr: GoType } | { readonly slice: GoType } | { readonly map: GoType } | { readonly struct: string };

/** One field of a Go struct: its JSON name, whether it is `omitempty`, and its type. */
export interface GoField {
  readonly json: string;
  readonly omitempty?: boolean;
  readonly type: GoType;
}

/** The struct types reachable from a root struct, by name. */
export interface GoShape {
  readonly root: string;
  readonly types: Readonly<Record<string, readonly GoField[]>>;
}

/** A Go value between Unmarshal and Marshal; `undefined` is nil (a pointer, slice, map or interface). */
type GoValue = unknown;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` after json.Unmarshal into the shape's root struct and json.Marshal back. A value of the wrong JSON type is kept. */
export function goJsonRoundTrip(value: unknown, shape: GoShape): unknown {
  return codecFor(shape).roundTrip(value, { struct: shape.root });
}

/** One codec per shape: its field tables are built once. */
const codecs = new WeakMap<GoShape, GoJsonCodec>();
function codecFor(shape: GoShape): GoJsonCodec {
  let codec = codecs.get(shape);
  if (!codec) codecs.set(shape, (codec = new GoJsonCodec(shape)));
  return codec;
}

/** A struct's fields by JSON name and by lower-cased name (encoding/json matches names case-insensitively). */
interface StructTable {
  readonly fields: readonly GoField[];
  readonly byName: ReadonlyMap<string, GoField>;
  readonly byLowerName: ReadonlyMap<string, GoField>;
}

class GoJsonCodec {
  private readonly tables = new Map<string, StructTable>();

  constructor(private readonly shape: GoShape) {}

  private table(name: string): StructTable {
    const known = this.tables.get(name);
    if (known) return known;
    const fields = this.shape.types[name];
    if (!fields) throw new Error(`the Go shape has no struct ${name}`);
    const byLowerName = new Map<string, GoField>();
    for (const field of [...fields].reverse()) byLowerName.set(field.json.toLowerCase(), field);
    const table = { fields, byName: new Map(fields.map((field) => [field.json, field])), byLowerName };
    this.tables.set(name, table);
    return table;
  }

  /** json.Unmarshal of `value` into a Go value of `type` (JSON null or a missing field leaves the zero value). */
  decode(value: unknown, type: GoType): GoValue {
    const absent = value === null || value === undefined;
    if (type === 'any') return absent ? undefined : value;
    if (type === 'string' || type === 'bool' || type === 'number') return absent ? zero(type) : value;
    if ('struct' in type) {
      if (!absent && !isObject(value)) return value;
      return this.decodeStruct(isObject(value) ? value : {}, this.table(type.struct));
    }
    if (absent) return undefined;
    if ('ptr' in type) return this.decode(value, type.ptr);
    if ('slice' in type) return Array.isArray(value) ? value.map((item) => this.decode(item, type.slice)) : value;
    return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.decode(v, type.map)])) : value;
  }

  /** The fields of a JSON object: an exact name first, else a case-insensitive one; unknown keys are dropped. */
  private decodeStruct(object: Record<string, unknown>, table: StructTable): Record<string, GoValue> {
    const raw = new Map<GoField, unknown>();
    for (const [key, item] of Object.entries(object)) {
      const exact = table.byName.get(key);
      const loose = exact ? undefined : table.byLowerName.get(key.toLowerCase());
      if (exact) raw.set(exact, item);
      else if (loose && !Object.hasOwn(object, loose.json)) raw.set(loose, item);
    }
    const out: Record<string, GoValue> = {};
    for (const field of table.fields) out[field.json] = this.decode(raw.get(field), field.type);
    return out;
  }

  /**
   * encode(decode(value, type), type) in one pass, without building the decoded value: a render normalizes every
   * Application it makes, so this runs once per Application. Each case is what decode then encode give.
   */
  roundTrip(value: unknown, type: GoType): unknown {
    const absent = value === null || value === undefined;
    if (type === 'any') return absent ? null : value;
    if (type === 'string' || type === 'bool' || type === 'number') return absent ? zero(type) : value;
    if ('struct' in type) {
      if (!absent && !isObject(value)) return value;
      return this.roundTripStruct(isObject(value) ? value : {}, this.table(type.struct));
    }
    if (absent) return null;
    if ('ptr' in type) return this.roundTrip(value, type.ptr);
    if ('slice' in type) return Array.isArray(value) ? value.map((item) => this.roundTrip(item, type.slice)) : value;
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = this.roundTrip(value[key], type.map);
    return out;
  }

  /** A struct's fields in declaration order; omitempty looks at the decoded value, as encoding/json does. */
  private roundTripStruct(object: Record<string, unknown>, table: StructTable): Record<string, unknown> {
    const loose = looseFields(object, table);
    const out: Record<string, unknown> = {};
    for (const field of table.fields) {
      const raw = Object.hasOwn(object, field.json) ? object[field.json] : loose?.get(field);
      if (field.omitempty && isEmptyAfterDecode(raw, field.type)) continue;
      out[field.json] = this.roundTrip(raw, field.type);
    }
    return out;
  }

  /** json.Marshal of a Go value of `type`. */
  encode(value: GoValue, type: GoType): unknown {
    if (value === undefined) return null;
    if (typeof type === 'string' || !isObject(type)) return value;
    if ('ptr' in type) return this.encode(value, type.ptr);
    if ('slice' in type) return Array.isArray(value) ? value.map((item: unknown) => this.encode(item, type.slice)) : value;
    if ('map' in type) return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.encode(v, type.map)])) : value;
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const field of this.table(type.struct).fields) {
      const item = value[field.json];
      if (field.omitempty && isEmpty(item, field.type)) continue;
      out[field.json] = this.encode(item, field.type);
    }
    return out;
  }
}

/** Go's zero value of a scalar type. */
function zero(type: 'string' | 'bool' | 'number'): GoValue {
  return type === 'string' ? '' : type === 'bool' ? false : 0;
}

/**
 * Fields named by a key that matches only case-insensitively (decodeStruct's rule: used when the exact key is
 * absent; the last such key wins); undefined when there is none, the usual case.
 */
function looseFields(object: Record<string, unknown>, table: StructTable): Map<GoField, unknown> | undefined {
  let loose: Map<GoField, unknown> | undefined;
  for (const key of Object.keys(object)) {
    if (table.byName.has(key)) continue;
    const field = table.byLowerName.get(key.toLowerCase());
    if (field && !Object.hasOwn(object, field.json)) (loose ??= new Map()).set(field, object[key]);
  }
  return loose;
}

/**
 * isEmpty(decode(raw, type), type) without decoding: decode keeps a present value's scalar-ness, length and keys
 * (or keeps the value itself), turns an absent one into nil or a scalar's zero value (both empty), and an absent
 * struct into a struct, which is never empty.
 */
function isEmptyAfterDecode(raw: unknown, type: GoType): boolean {
  if (raw === null || raw === undefined) return !(typeof type === 'object' && 'struct' in type);
  return isEmpty(raw, type);
}

/** encoding/json's omitempty: false, 0, "", nil, and empty slices and maps; a struct is never empty. */
function isEmpty(value: GoValue, type: GoType): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0) return true;
  if (typeof type === 'object' && ('slice' in type || 'map' in type))
    return Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
  return false;
}
