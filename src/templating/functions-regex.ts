import { TemplateProblem } from './template-problem.js';
import { intArg } from './functions-text.js';
import { isDigit, isLetter } from './go-strings.js';
import { RegexSyntaxError } from './regex-parse.js';
import { compileRegex, execRegex, MatchBudget, type Program } from './regex-vm.js';
import { fn, type FunctionTable } from './template-function.js';
import { nilSlice, stringValue } from './plain-values.js';

/**
 * sprig's regex functions over Go's regexp package: RE2 syntax and semantics (see regex-parse.ts and
 * regex-vm.ts), Go's rules for successive and empty matches, and its `$1`/`${name}` replacement syntax.
 */

const s = stringValue;
const CACHE_SIZE = 500;
const cache = new Map<string, Program | RegexSyntaxError>();

/** The compiled pattern (cached: a template runs the same patterns for every Application), or Go's syntax error. */
function compiled(pattern: string): Program | RegexSyntaxError {
  let entry = cache.get(pattern);
  if (!entry) {
    try {
      entry = compileRegex(pattern);
    } catch (error) {
      if (!(error instanceof RegexSyntaxError)) throw error;
      entry = error;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, entry);
  }
  return entry;
}

/** regexp.MustCompile: Go panics on a bad pattern, which stops the render; so does this. */
function mustCompile(pattern: unknown, fn: string): Program {
  const entry = compiled(s(pattern));
  if (entry instanceof RegexSyntaxError) throw new TemplateProblem(`${fn}: ${entry.message}`);
  return entry;
}

/** Text as code points, with the UTF-16 offset of each (and of the end) for slicing. */
class Subject {
  readonly cps: number[] = [];
  readonly offsets: number[] = [];
  constructor(readonly text: string) {
    let offset = 0;
    for (const ch of text) {
      this.cps.push(ch.codePointAt(0) ?? 0);
      this.offsets.push(offset);
      offset += ch.length;
    }
    this.offsets.push(offset);
  }

  slice(from: number, to: number): string {
    return this.text.slice(this.offsets[from], this.offsets[to]);
  }
}

/** Go's allMatches: successive matches, skipping an empty match right after the previous one. */
function allMatches(program: Program, subject: Subject, limit: number): number[][] {
  const out: number[][] = [];
  const budget = new MatchBudget();
  const end = subject.cps.length;
  for (let pos = 0, prevEnd = -1; out.length < limit && pos <= end;) {
    const m = execRegex(program, subject.cps, pos, budget);
    if (!m) break;
    const [start = 0, stop = 0] = m;
    let accept = true;
    if (stop === pos) {
      if (start === prevEnd) accept = false;
      pos = pos < end ? pos + 1 : end + 1;
    } else pos = stop;
    prevEnd = stop;
    if (accept) out.push(m);
  }
  return out;
}

/** Go's extract: the group name or number after a `$` (`1`, `name`, `{name}`), and the text after it. */
function extract(text: string): { name: string; num: number; rest: string } | undefined {
  const braced = text.startsWith('{');
  const chars = [...(braced ? text.slice(1) : text)];
  let length = 0;
  while (length < chars.length && (chars[length] === '_' || isLetter(chars[length] ?? '') || isDigit(chars[length] ?? ''))) length++;
  if (length === 0) return undefined;
  const name = chars.slice(0, length).join('');
  let rest = chars.slice(length).join('');
  if (braced) {
    if (!rest.startsWith('}')) return undefined;
    rest = rest.slice(1);
  }
  const num = /^[0-9]{1,9}$/.test(name) && !(name.length > 1 && name.startsWith('0')) ? Number(name) : -1;
  return { name, num, rest };
}

/** Go's Regexp.Expand of `$1`, `${1}`, `$name`, `${name}` and `$$` in a replacement. */
function expand(template: string, program: Program, subject: Subject, m: number[]): string {
  const group = (i: number) => ((m[2 * i] ?? -1) >= 0 ? subject.slice(m[2 * i] ?? 0, m[2 * i + 1] ?? 0) : '');
  let out = '';
  let rest = template;
  for (let dollar = rest.indexOf('$'); dollar >= 0; dollar = rest.indexOf('$')) {
    out += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      rest = rest.slice(1);
      continue;
    }
    const ref = extract(rest);
    if (!ref) {
      out += '$';
      continue;
    }
    rest = ref.rest;
    if (ref.num >= 0) out += 2 * ref.num + 1 < m.length ? group(ref.num) : '';
    else {
      const index = program.names.findIndex((n, i) => n === ref.name && (m[2 * i] ?? -1) >= 0);
      if (index >= 0) out += group(index);
    }
  }
  return out + rest;
}

/** Go's replaceAll loop: each match replaced, except an empty match right after the previous one. */
function replaceAll(pattern: unknown, value: unknown, replace: (m: number[], program: Program, subject: Subject) => string, fnName: string): string {
  const program = mustCompile(pattern, fnName);
  const subject = new Subject(s(value));
  const budget = new MatchBudget();
  const end = subject.cps.length;
  let out = '';
  let lastEnd = 0;
  for (let search = 0; search <= end;) {
    const m = execRegex(program, subject.cps, search, budget);
    if (!m) break;
    const [start = 0, stop = 0] = m;
    out += subject.slice(lastEnd, start);
    if (stop > lastEnd || start === 0) out += replace(m, program, subject);
    lastEnd = stop;
    const width = search < end ? 1 : 0;
    search = search + width > stop ? search + width : search + 1 > stop ? search + 1 : stop;
  }
  return out + subject.slice(lastEnd, end);
}

/** Go's Regexp.Split: at most n pieces (all when n < 0, none when 0). */
function split(pattern: unknown, value: unknown, count: unknown, fnName: string): string[] {
  const n = intArg(count, fnName);
  const program = mustCompile(pattern, fnName);
  const subject = new Subject(s(value));
  if (n === 0) return nilSlice();
  if (s(pattern) !== '' && subject.text === '') return [''];
  const out: string[] = [];
  let [begin, end] = [0, 0];
  for (const m of allMatches(program, subject, n < 0 ? Infinity : n)) {
    if (n > 0 && out.length >= n - 1) break;
    end = m[0] ?? 0;
    if ((m[1] ?? 0) !== 0) out.push(subject.slice(begin, end));
    begin = m[1] ?? 0;
  }
  if (end !== subject.cps.length) out.push(subject.slice(begin, subject.cps.length));
  return out;
}

function findAll(pattern: unknown, value: unknown, count: unknown): string[] {
  const n = intArg(count, 'regexFindAll');
  const subject = new Subject(s(value));
  const matches = allMatches(mustCompile(pattern, 'regexFindAll'), subject, n < 0 ? Infinity : n);
  return matches.length === 0 ? nilSlice() : matches.map((m) => subject.slice(m[0] ?? 0, m[1] ?? 0));
}

function find(pattern: unknown, value: unknown): string {
  const subject = new Subject(s(value));
  const m = execRegex(mustCompile(pattern, 'regexFind'), subject.cps, 0, new MatchBudget());
  return m ? subject.slice(m[0] ?? 0, m[1] ?? 0) : '';
}

function matches(pattern: unknown, value: unknown, must: boolean): boolean {
  const entry = compiled(s(pattern));
  if (entry instanceof RegexSyntaxError) {
    if (must) throw new TemplateProblem(`mustRegexMatch: ${entry.message}`);
    return false;
  }
  return execRegex(entry, new Subject(s(value)).cps, 0, new MatchBudget()) !== undefined;
}

/** regexp.QuoteMeta: every byte special to the syntax gets a backslash. */
export function quoteMeta(value: unknown): string {
  return s(value).replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

const replaceExpanded = (re: unknown, v: unknown, repl: unknown) => replaceAll(re, v, (m, p, subj) => expand(s(repl), p, subj, m), 'regexReplaceAll');
const replaceLiteral = (re: unknown, v: unknown, repl: unknown) => replaceAll(re, v, () => s(repl), 'regexReplaceAllLiteral');

/** The regex functions by name; apart from regexMatch (false on a bad pattern), each form fails on a bad pattern. */
export const REGEX_FUNCTIONS: FunctionTable = {
  regexMatch: fn((re, v) => matches(re, v, false)),
  mustRegexMatch: fn((re, v) => matches(re, v, true)),
  regexFind: fn(find),
  mustRegexFind: fn(find),
  regexFindAll: fn(findAll),
  mustRegexFindAll: fn(findAll),
  regexReplaceAll: fn(replaceExpanded),
  mustRegexReplaceAll: fn(replaceExpanded),
  regexReplaceAllLiteral: fn(replaceLiteral),
  mustRegexReplaceAllLiteral: fn(replaceLiteral),
  regexSplit: fn((re, v, n) => split(re, v, n, 'regexSplit')),
  mustRegexSplit: fn((re, v, n) => split(re, v, n, 'mustRegexSplit')),
  regexQuoteMeta: fn(quoteMeta),
};
