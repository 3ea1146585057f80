/**
 * An exact text key of plain data (a parameter set, a template): two values get the same key only if a
 * template cannot tell them apart. JSON.stringify is not exact (it drops `undefined` members and writes NaN,
 * Infinity and -0 as null or 0, which Go templates print differently), so numbers that JSON cannot hold and
 * `undefined` get tags of their own. Strings are always written JSON-quoted, so a tag can never be mistaken
 * for a string. Anything that is not plain data (a Date, a Map, a class instance, a function) has no key:
 * the caller renders such a value every time.
 */
export function plainDataKey(value: unknown): string | undefined {
  const kind = jsonKind(value);
  // The common case: JSON holds the value exactly, and the native JSON.stringify is several times faster.
  if (kind === Kind.Json) return JSON.stringify(value);
  if (kind === Kind.NotPlain) return undefined;
  // A control character no JSON text starts with keeps the tagged form apart from every JSON text.
  const parts: string[] = ['\u0001'];
  return writeValue(value, parts) ? parts.join('') : undefined;
}

const enum Kind {
  /** JSON text holds it exactly: strings, finite numbers other than -0, booleans, null, arrays and plain objects. */
  Json,
  /** Plain data, but with `undefined`, NaN, an infinity or -0 somewhere. */
  Tagged,
  NotPlain,
}

/** Which {@link Kind} `value` is, without building anything. */
function jsonKind(value: unknown): Kind {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return Kind.Json;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? Kind.Json : Kind.Tagged;
    case 'undefined':
      return Kind.Tagged;
    case 'object': {
      if (value === null) return Kind.Json;
      let kind = Kind.Json;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length && kind !== Kind.NotPlain; i++) kind = Math.max(kind, jsonKind(value[i] as unknown));
        return kind;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return Kind.NotPlain;
      for (const name of Object.keys(value)) {
        kind = Math.max(kind, jsonKind((value as Record<string, unknown>)[name]));
        if (kind === Kind.NotPlain) break;
      }
      return kind;
    }
    default:
      return Kind.NotPlain;
  }
}

/** Appends the encoding of `value` to `parts`; false when it is not plain data. */
function writeValue(value: unknown, parts: string[]): boolean {
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      // A finite number other than -0 round-trips through its decimal text; the others are tagged.
      parts.push(Number.isFinite(value) && !Object.is(value, -0) ? String(value) : `#${Object.is(value, -0) ? '-0' : String(value)}`);
      return true;
    case 'boolean':
      parts.push(value ? 't' : 'f');
      return true;
    case 'undefined':
      parts.push('u');
      return true;
    case 'object':
      if (value === null) {
        parts.push('n');
        return true;
      }
      return Array.isArray(value) ? writeArray(value, parts) : writeObject(value, parts);
    default:
      return false;
  }
}

function writeArray(items: readonly unknown[], parts: string[]): boolean {
  parts.push('[');
  for (let i = 0; i < items.length; i++) {
    // A hole reads as undefined, as the templates see it.
    if (!writeValue(items[i], parts)) return false;
    parts.push(',');
  }
  parts.push(']');
  return true;
}

function writeObject(value: object, parts: string[]): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  parts.push('{');
  // Insertion order is kept: a generator that lists the same members in another order only misses the memo.
  for (const [name, member] of Object.entries(value)) {
    parts.push(JSON.stringify(name), ':');
    if (!writeValue(member, parts)) return false;
    parts.push(',');
  }
  parts.push('}');
  return true;
}
