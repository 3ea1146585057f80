import { TemplateProblem } from './template-problem.js';
import {
  compare,
  dict,
  eq,
  fromJson,
  fromYaml,
  fromYamlArray,
  get,
  goJson,
  goSprint,
  goSprintf,
  index,
  isEmpty,
  JsonError,
  length,
  split,
  toYaml,
} from './functions-data.js';
import { indent, normalize, quote, repeat, slugify, squote, substr, trimAll, trunc } from './functions-text.js';
import {
  abbrev,
  abbrevboth,
  goSplitN,
  initials,
  nospace,
  plural,
  sortAlpha,
  splitn,
  swapcase,
  title,
  toStrings,
  untitle,
  wrapCustom,
} from './functions-strings.js';
import { camelcase, kebabcase, snakecase } from './functions-case.js';
import { adler32sum, b32dec, b32enc, b64dec, digest, html, js, urlquery } from './functions-encoding.js';
import { MATH_FUNCTIONS } from './functions-math.js';
import { LIST_FUNCTIONS } from './functions-lists.js';
import { DICT_FUNCTIONS } from './functions-dicts.js';
import { TYPE_FUNCTIONS } from './functions-types.js';
import { REGEX_FUNCTIONS } from './functions-regex.js';
import { semverFunctions } from './functions-semver.js';
import { checkConstraint } from './semver-constraints.js';
import { URL_FUNCTIONS } from './functions-url.js';
import { PATH_FUNCTIONS } from './functions-paths.js';
import { TIME_FUNCTIONS } from './functions-time.js';
import { fn, guard, type FunctionTable } from './template-function.js';
import { goLowerString, goUpperString } from './go-strings.js';
import { goTruthy, MissingValue, stringValue } from './plain-values.js';
import { intArg } from './functions-text.js';

export type { TemplateFunction } from './template-function.js';

/** The template functions of goTemplate style: Argo CD's, sprig's and Go's builtins. */

const s = stringValue;
const present = (v: unknown) => (v instanceof MissingValue ? null : v);

/** sprig's toJson and toPrettyJson print "" where json.Marshal fails; the must* forms and toRawJson fail. */
const lenientJson = (value: unknown, indentText = ''): string => {
  try {
    return goJson(value, indentText);
  } catch (error) {
    if (error instanceof JsonError) return '';
    throw error;
  }
};

/** strings.Replace(s, old, new, -1): an empty `old` inserts `new` around every character. */
function replaceAll(from: unknown, to: unknown, value: unknown): string {
  if (s(from) !== '') return s(value).split(s(from)).join(s(to));
  const chars = [...s(value)];
  return chars.length === 0 ? s(to) : `${s(to)}${chars.join(s(to))}${s(to)}`;
}

const STRING_FUNCTIONS: FunctionTable = {
  lower: fn((v) => goLowerString(s(v))),
  upper: fn((v) => goUpperString(s(v))),
  title: fn(title),
  untitle: fn(untitle),
  swapcase: fn(swapcase),
  camelcase: fn(camelcase),
  kebabcase: fn(kebabcase),
  snakecase: fn(snakecase),
  trim: fn((v) => s(v).replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '')),
  trimAll: fn(trimAll),
  trimall: fn(trimAll),
  trimPrefix: fn((p, v) => (s(v).startsWith(s(p)) ? s(v).slice(s(p).length) : s(v))),
  trimSuffix: fn((x, v) => (s(x) !== '' && s(v).endsWith(s(x)) ? s(v).slice(0, -s(x).length) : s(v))),
  trunc: fn(trunc),
  substr: fn(substr),
  abbrev: fn(abbrev),
  abbrevboth: fn(abbrevboth),
  initials: fn(initials),
  wrap: fn((width, v) => wrapCustom(s(v), intArg(width, 'wrap'), '', false)),
  wrapWith: fn((width, sep, v) => wrapCustom(s(v), intArg(width, 'wrapWith'), s(sep), true)),
  replace: fn(replaceAll),
  repeat: fn(repeat),
  nospace: fn(nospace),
  contains: fn((needle, v) => s(v).includes(s(needle))),
  hasPrefix: fn((p, v) => s(v).startsWith(s(p))),
  hasSuffix: fn((x, v) => s(v).endsWith(s(x))),
  quote: fn(quote),
  squote: fn(squote),
  cat: fn((...values) =>
    values
      .filter((v) => v !== undefined && v !== null)
      .map(s)
      .join(' '),
  ),
  indent: fn(indent),
  nindent: fn((n, v) => `\n${indent(n, v)}`),
  plural: fn(plural),
  split: fn(split),
  splitn: fn(splitn),
  splitList: fn((sep, v) => goSplitN(s(v), s(sep), -1)),
  join: fn((sep, list) => toStrings(list).join(s(sep))),
  toStrings: fn(toStrings),
  sortAlpha: fn(sortAlpha),
  toString: fn((v) => (v === null || v === undefined ? '<nil>' : s(v))),
  hello: fn(() => 'Hello!'),
  b64enc: fn((v) => Buffer.from(s(v), 'utf8').toString('base64')),
  b64dec: fn(b64dec),
  b32enc: fn(b32enc),
  b32dec: fn(b32dec),
  sha1sum: fn((v) => digest('sha1', v)),
  sha256sum: fn((v) => digest('sha256', v)),
  sha512sum: fn((v) => digest('sha512', v)),
  adler32sum: fn(adler32sum),
};

const DATA_FUNCTIONS: FunctionTable = {
  // Argo CD's own
  normalize: fn(normalize),
  slugify: fn(slugify),
  toYaml: fn(toYaml),
  fromYaml: fn(fromYaml),
  fromYamlArray: fn(fromYamlArray),
  // sprig defaults, flow and JSON
  default: guard((fallback, ...given) => (given.length === 0 || isEmpty(given[0]) ? fallback : given[0])),
  empty: guard(isEmpty),
  coalesce: guard((...values) => values.find((v) => !isEmpty(v)) ?? null),
  all: guard((...values) => values.every((v) => !isEmpty(v))),
  any: guard((...values) => values.some((v) => !isEmpty(v))),
  ternary: guard((yes, no, condition) => (goTruthy(condition) ? yes : no)),
  fail: fn((message) => {
    throw new TemplateProblem(`fail: ${s(message)}`);
  }),
  toJson: fn((v) => lenientJson(v)),
  mustToJson: fn((v) => goJson(v)),
  toRawJson: fn((v) => goJson(v, '', false)),
  mustToRawJson: fn((v) => goJson(v, '', false)),
  toPrettyJson: fn((v) => lenientJson(v, '  ')),
  mustToPrettyJson: fn((v) => goJson(v, '  ')),
  fromJson: fn(fromJson),
  mustFromJson: fn(fromJson),
  list: fn((...values) => values),
  dict: fn(dict),
  get: fn(get),
  // Go builtins
  index: fn(index),
  len: fn(length),
  eq: guard((a, ...b) => eq(present(a), ...b.map(present))),
  ne: guard((a, b) => !eq(present(a), present(b))),
  lt: fn((a, b) => compare(a, b, 'lt') < 0),
  le: fn((a, b) => compare(a, b, 'le') <= 0),
  gt: fn((a, b) => compare(a, b, 'gt') > 0),
  ge: fn((a, b) => compare(a, b, 'ge') >= 0),
  and: guard((...values) => values.find((v) => !goTruthy(v)) ?? values.at(-1)),
  or: guard((...values) => values.find((v) => goTruthy(v)) ?? values.at(-1)),
  not: guard((v) => !goTruthy(v)),
  print: fn(goSprint),
  printf: fn(goSprintf),
  println: fn((...values) => `${values.map((v) => goSprint(v)).join(' ')}\n`),
  html: fn(html),
  js: fn(js),
  urlquery: fn(urlquery),
};

const TABLES: FunctionTable[] = [
  STRING_FUNCTIONS,
  DATA_FUNCTIONS,
  MATH_FUNCTIONS,
  LIST_FUNCTIONS,
  DICT_FUNCTIONS,
  TYPE_FUNCTIONS,
  REGEX_FUNCTIONS,
  semverFunctions(checkConstraint),
  URL_FUNCTIONS,
  PATH_FUNCTIONS,
  TIME_FUNCTIONS,
];

/** Every function a goTemplate may call, by name. Nothing here touches the file system, environment or network. */
export const TEMPLATE_FUNCTIONS: Readonly<FunctionTable> = Object.freeze(
  TABLES.reduce<FunctionTable>(
    (all, table) => {
      for (const name of Object.keys(table)) if (Object.hasOwn(all, name)) throw new Error(`template function '${name}' is defined twice`);
      return Object.assign(all, table);
    },
    Object.create(null) as FunctionTable,
  ),
);
