import { createHash } from 'node:crypto';
import { TemplateProblem } from './template-problem.js';
import {
  compare,
  dict,
  eq,
  fromJson,
  fromYaml,
  get,
  goJson,
  goSprint,
  goSprintf,
  index,
  isEmpty,
  length,
  listOf,
  num,
  split,
  toYaml,
} from './functions-data.js';
import { b64dec, indent, normalize, quote, repeat, slugify, squote, substr, title, trimAll, trunc } from './functions-text.js';
import { goTruthy, isPlainMap, MissingValue, stringValue } from './plain-values.js';

/** The template functions of goTemplate style: Argo CD's, a sprig subset and Go's builtins. */

/** One template function: its implementation and whether it may receive a missing parameter without error. */
export interface TemplateFunction {
  call: (...args: unknown[]) => unknown;
  /** Guards (`default`, `empty`, `and`...) test for missing values, so passing one is not an error. */
  guard?: boolean;
}

const s = stringValue;
const fn = (call: (...args: unknown[]) => unknown): TemplateFunction => ({ call });
const guard = (call: (...args: unknown[]) => unknown): TemplateFunction => ({ call, guard: true });

/** Every function a goTemplate may call, by name. Nothing here touches the file system, environment or network. */
export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TemplateFunction>, {
    // Argo CD's own
    normalize: fn(normalize),
    slugify: fn(slugify),
    toYaml: fn(toYaml),
    fromYaml: fn(fromYaml),
    // sprig strings
    lower: fn((v) => s(v).toLowerCase()),
    upper: fn((v) => s(v).toUpperCase()),
    title: fn(title),
    trim: fn((v) => s(v).trim()),
    trimAll: fn(trimAll),
    trimPrefix: fn((p, v) => (s(v).startsWith(s(p)) ? s(v).slice(s(p).length) : s(v))),
    trimSuffix: fn((x, v) => (s(x) !== '' && s(v).endsWith(s(x)) ? s(v).slice(0, -s(x).length) : s(v))),
    trunc: fn(trunc),
    substr: fn(substr),
    replace: fn((from, to, v) => s(v).split(s(from)).join(s(to))),
    repeat: fn(repeat),
    nospace: fn((v) => s(v).replace(/\s+/g, '')),
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
    split: fn(split),
    splitList: fn((sep, v) => s(v).split(s(sep))),
    join: fn((sep, list) => listOf(list, 'join').map(s).join(s(sep))),
    toString: fn(s),
    b64enc: fn((v) => Buffer.from(s(v), 'utf8').toString('base64')),
    b64dec: fn(b64dec),
    sha256sum: fn((v) => createHash('sha256').update(s(v)).digest('hex')),
    // sprig defaults and JSON
    default: guard((fallback, ...given) => (given.length === 0 || isEmpty(given[0]) ? fallback : given[0])),
    empty: guard(isEmpty),
    coalesce: guard((...values) => values.find((v) => !isEmpty(v)) ?? null),
    ternary: guard((yes, no, condition) => (goTruthy(condition) ? yes : no)),
    toJson: fn((v) => goJson(v)),
    toRawJson: fn((v) => goJson(v, '', false)),
    toPrettyJson: fn((v) => goJson(v, '  ')),
    fromJson: fn(fromJson),
    // sprig lists and dicts
    list: fn((...values) => values),
    dict: fn(dict),
    get: fn(get),
    hasKey: fn((map, key) => isPlainMap(map) && Object.hasOwn(map, s(key))),
    keys: fn((...maps) => maps.flatMap((m) => (isPlainMap(m) ? Object.keys(m) : [])).sort()),
    first: fn((list) => listOf(list, 'first')[0] ?? null),
    last: fn((list) => listOf(list, 'last').at(-1) ?? null),
    // sprig arithmetic
    add: fn((...values) => values.reduce<number>((sum, v) => sum + num(v, 'add'), 0)),
    add1: fn((v) => num(v, 'add1') + 1),
    sub: fn((a, b) => num(a, 'sub') - num(b, 'sub')),
    mul: fn((...values) => values.reduce<number>((product, v) => product * num(v, 'mul'), 1)),
    div: fn((a, b) => {
      if (num(b, 'div') === 0) throw new TemplateProblem('div: division by zero');
      return Math.trunc(num(a, 'div') / num(b, 'div'));
    }),
    mod: fn((a, b) => {
      if (num(b, 'mod') === 0) throw new TemplateProblem('mod: division by zero');
      return num(a, 'mod') % num(b, 'mod');
    }),
    int: fn((v) => (v === null || v === undefined || v === '' ? 0 : num(v, 'int'))),
    atoi: fn((v) => (/^[-+]?\d+$/.test(s(v)) ? Number(s(v)) : 0)),
    // Go builtins
    index: fn(index),
    len: fn(length),
    eq: guard((a, ...b) => eq(a instanceof MissingValue ? null : a, ...b.map((v) => (v instanceof MissingValue ? null : v)))),
    ne: guard((a, b) => !eq(a instanceof MissingValue ? null : a, b instanceof MissingValue ? null : b)),
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
  }),
);
