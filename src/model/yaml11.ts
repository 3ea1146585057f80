import { parse, parseAllDocuments, type Document, type DocumentOptions, type ParseOptions, type ScalarTag, type SchemaOptions, type Tags } from 'yaml';

/**
 * YAML as Kubernetes and Argo CD read it (sigs.k8s.io/yaml over go-yaml v2): YAML 1.1 booleans (`yes`, `on`, `y`),
 * and numbers as go-yaml v2 resolves them. Manifests, templatePatch, elementsYaml and git files all go through
 * here, so one document reads the same wherever it is written.
 */

/** Go's strconv.ParseInt/ParseUint with base 0 (`0x`, `0o`, `0b`, a leading `0` for octal), within 64 bits. */
function goParseInt(text: string): number | undefined {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', body = ''] = match;
  const octal = /^0[0-7]+$/.test(body) ? `0o${body.slice(1)}` : body;
  const magnitude = BigInt(octal.replace(/^0[XOB]/, (p) => p.toLowerCase()));
  const value = sign === '-' ? -magnitude : magnitude;
  if (value < -(2n ** 63n) || value >= 2n ** 64n) return undefined;
  return Number(value);
}

/** The float syntax go-yaml v2 accepts after ParseInt failed (`1e3`, `08`, `1.`). */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * A plain scalar starting with a digit, a sign or a dot, resolved as go-yaml v2 does: underscores dropped, then
 * an integer in any Go base, then a float; anything else (`1:30`, `-foo`, `.`, `1e400`) stays a string. go-yaml
 * v2 has no base-60 numbers, and it hands timestamps to an `interface{}` as strings.
 */
function goYamlNumber(text: string): number | string {
  if (text.startsWith('.')) return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(text) ? Number(text) : text;
  const plain = text.replaceAll('_', '');
  const integer = goParseInt(plain);
  if (integer !== undefined) return integer;
  if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return Number(plain);
  return text;
}

const GO_YAML_NUMBER: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  identify: (value) => typeof value === 'number',
  test: /^[-+.0-9]/,
  resolve: goYamlNumber,
};

/** The 1.1 schema with go-yaml v2's numbers in place of the YAML 1.1 int, float, base-60 and timestamp tags. */
function goYamlV2Tags(tags: Tags): Tags {
  const replaced = (tag: Tags[number]): boolean => {
    if (typeof tag !== 'object') return false;
    if (tag.tag === 'tag:yaml.org,2002:int' || tag.tag === 'tag:yaml.org,2002:timestamp') return true;
    // Every float form with digits goes; `.inf` and `.nan` stay as the 1.1 schema has them.
    return tag.tag === 'tag:yaml.org,2002:float' && String(tag.test ?? '').includes('[0-9]');
  };
  return [...tags.filter((tag) => !replaced(tag)), GO_YAML_NUMBER];
}

const YAML11_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = { version: '1.1', customTags: goYamlV2Tags };

/** Parses one YAML 1.1 document the way go-yaml v2 does; `options` add limits such as `maxAliasCount`. */
export function parseYaml11(text: string, options: ParseOptions & DocumentOptions & SchemaOptions & { maxAliasCount?: number } = {}): unknown {
  return parse(text, { ...YAML11_OPTIONS, ...options }) as unknown;
}

/** Every document of a YAML 1.1 stream (a manifest file), unconverted so the caller can report errors per document. */
export function parseAllYaml11Documents(text: string): Document[] {
  return [...parseAllDocuments(text, YAML11_OPTIONS)];
}
