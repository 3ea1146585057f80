import { TemplateProblem } from './template-problem.js';
import { compareVersions, comparePrerelease, parseVersion, type SemverVersion } from './functions-semver.js';

/** Masterminds/semver v3.4.0 constraints (`>= 1.2, < 2`, `^1.2`, `~1.2.x`, `1 - 2`, `a || b`), for sprig's semverCompare. */

// Go's regexp \s is ASCII only; these patterns are semver's, with that class spelled out.
const WS = '[\\t\\n\\f\\r ]';
const CV =
  '(?:v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?)';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CONSTRAINT = new RegExp(`^${WS}*(${OPS})${WS}*(${CV})${WS}*$`);
const RANGE = new RegExp(`${WS}*(${CV})${WS}+-${WS}+(${CV})${WS}*`, 'g');
const FIND = new RegExp(`(${OPS})${WS}*(${CV})`, 'g');
const VALID = new RegExp(`^(${WS}*(${OPS})${WS}*(${CV})${WS}*)((?:${WS}+|,${WS}*)(${OPS})${WS}*(${CV})${WS}*)*$`);

interface Constraint {
  op: string;
  con: SemverVersion;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

const isX = (s: string | undefined) => s === 'x' || s === 'X' || s === '*';

function parseConstraint(text: string): Constraint {
  const m = CONSTRAINT.exec(text);
  if (!m) throw new TemplateProblem(`semverCompare: improper constraint: ${text}`);
  const [, op = '', written = '', major = '', minor = '', patch = '', pre = ''] = m;
  let version = written;
  let [dirty, minorDirty, patchDirty] = [false, false, false];
  if (isX(major) || major === '') [version, dirty] = [`0.0.0${pre}`, true];
  else if (isX(minor.slice(1)) || minor === '') [version, dirty, minorDirty] = [`${major}.0.0${pre}`, true, true];
  else if (isX(patch.slice(1)) || patch === '') [version, dirty, patchDirty] = [`${major}${minor}.0${pre}`, true, true];
  const con = parseVersion(version);
  if (typeof con === 'string') throw new TemplateProblem('semverCompare: constraint parser error');
  return { op, con, dirty, minorDirty, patchDirty };
}

const cmp = compareVersions;

function tilde(v: SemverVersion, c: Constraint): boolean {
  if (cmp(v, c.con) < 0) return false;
  if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  return !(v.minor !== c.con.minor && !c.minorDirty);
}

function notEqual(v: SemverVersion, c: Constraint): boolean {
  if (c.dirty) {
    if (c.con.major !== v.major) return true;
    if (c.con.minor !== v.minor && !c.minorDirty) return true;
    if (c.minorDirty) return false;
    if (c.con.patch !== v.patch && !c.patchDirty) return true;
    if (c.patchDirty) return (v.pre !== '' || c.con.pre !== '') && comparePrerelease(v.pre, c.con.pre) !== 0;
  }
  return cmp(v, c.con) !== 0;
}

function greaterThan(v: SemverVersion, c: Constraint): boolean {
  if (!c.dirty) return cmp(v, c.con) === 1;
  if (v.major > c.con.major) return true;
  if (v.major < c.con.major || c.minorDirty) return false;
  if (c.patchDirty) return v.minor > c.con.minor;
  return cmp(v, c.con) === 1;
}

function lessEqual(v: SemverVersion, c: Constraint): boolean {
  if (!c.dirty) return cmp(v, c.con) <= 0;
  if (v.major > c.con.major) return false;
  return !(v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty);
}

function caret(v: SemverVersion, c: Constraint): boolean {
  if (cmp(v, c.con) < 0) return false;
  if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major;
  if (v.major > 0n) return false;
  if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor;
  if (v.minor > 0n) return false;
  return c.con.patch === v.patch;
}

const CHECKS: Record<string, (v: SemverVersion, c: Constraint) => boolean> = {
  '': (v, c) => (c.dirty ? tilde(v, c) : cmp(v, c.con) === 0),
  '=': (v, c) => (c.dirty ? tilde(v, c) : cmp(v, c.con) === 0),
  '!=': notEqual,
  '>': greaterThan,
  '<': (v, c) => cmp(v, c.con) < 0,
  '>=': (v, c) => cmp(v, c.con) >= 0,
  '=>': (v, c) => cmp(v, c.con) >= 0,
  '<=': lessEqual,
  '=<': lessEqual,
  '~': tilde,
  '~>': tilde,
  '^': caret,
};

/** `a - b` ranges become `>= a, <= b`, as semver's rewriteRange does. */
function rewriteRange(text: string): string {
  let out = text;
  for (const m of text.matchAll(RANGE)) out = out.replace(m[0], `>= ${m[1] ?? ''}, <= ${m[11] ?? ''} `);
  return out;
}

/** semver Constraints.Check: true if any `||` group accepts the version; prereleases only match groups naming one. */
export function checkConstraint(constraint: string, version: SemverVersion): boolean {
  const groups = rewriteRange(constraint)
    .split('||')
    .map((group) => {
      if (!VALID.test(group)) throw new TemplateProblem(`semverCompare: improper constraint: ${group}`);
      const found = [...group.matchAll(FIND)].map((m) => m[0]);
      return (found.length > 0 ? found : [group]).map(parseConstraint);
    });
  return groups.some((group) => {
    const includePre = group.some((c) => c.con.pre !== '');
    if (version.pre !== '' && !includePre) return false;
    return group.every((c) => (CHECKS[c.op] ?? (() => false))(version, c));
  });
}
