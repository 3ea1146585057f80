import { TemplateProblem } from './template-problem.js';
import { fn, type FunctionTable } from './template-function.js';
import { GoObject, stringValue } from './plain-values.js';

/**
 * sprig's `semver` and `semverCompare`, ported from Masterminds/semver v3.4.0 (the version Argo CD v3.2.6
 * builds with): NewVersion's loose parsing (coercing "1.2" and leading zeros), constraints with `||`,
 * ranges, `^`, `~`, wildcards, and the rule that a prerelease only matches a constraint that names one.
 */

const LOOSE = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;
const UINT64_MAX = 2n ** 64n - 1n;

/** A parsed version; `pointer` says whether Go holds it as *Version (from semver) or Version (from IncMajor...). */
export class SemverVersion extends GoObject {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
    private readonly pointer = true,
  ) {
    super();
  }

  get goType(): string {
    return this.pointer ? '*semver.Version' : 'semver.Version';
  }

  goString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre ? `-${this.pre}` : ''}${this.metadata ? `+${this.metadata}` : ''}`;
  }

  goJson(): unknown {
    return this.goString();
  }

  goField(name: string): unknown {
    const vPrefix = this.original.startsWith('v') ? 'v' : '';
    const next = (major: bigint, minor: bigint, patch: bigint, pre = '') => {
      const base = new SemverVersion(major, minor, patch, pre, '', '', false);
      return new SemverVersion(major, minor, patch, pre, '', vPrefix + base.goString(), false);
    };
    switch (name) {
      case 'Major':
        return this.major;
      case 'Minor':
        return this.minor;
      case 'Patch':
        return this.patch;
      case 'Prerelease':
        return this.pre;
      case 'Metadata':
        return this.metadata;
      case 'String':
        return this.goString();
      case 'Original':
        return this.pointer ? this.original : undefined;
      case 'IncMajor':
        return next(this.major + 1n, 0n, 0n);
      case 'IncMinor':
        return next(this.major, this.minor + 1n, 0n);
      case 'IncPatch':
        return this.pre ? next(this.major, this.minor, this.patch) : next(this.major, this.minor, this.patch + 1n);
      default:
        return undefined;
    }
  }
}

function validPrerelease(pre: string): boolean {
  return pre.split('.').every((p) => p !== '' && (/^[0-9]+$/.test(p) ? !(p.length > 1 && p.startsWith('0')) : /^[0-9A-Za-z-]+$/.test(p)));
}

/** semver.NewVersion (with CoerceNewVersion, the default): an error message, or the version. */
export function parseVersion(text: string): SemverVersion | string {
  const m = LOOSE.exec(text);
  if (!m) return 'invalid semantic version';
  const segment = (s: string | undefined) => BigInt((s ?? '').replace(/^\./, '') || '0');
  const [major, minor, patch] = [segment(m[1]), segment(m[2]), segment(m[3])];
  if (major > UINT64_MAX || minor > UINT64_MAX || patch > UINT64_MAX) return 'error parsing version segment: value out of range';
  const pre = m[5] ?? '';
  const metadata = m[8] ?? '';
  if (pre && !validPrerelease(pre)) return 'version segment starts with 0';
  if (metadata && !metadata.split('.').every((p) => /^[0-9A-Za-z-]+$/.test(p))) return 'invalid metadata string';
  return new SemverVersion(major, minor, patch, pre, metadata, text);
}

function comparePart(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const an = /^[0-9]+$/.test(a) && BigInt(a) <= UINT64_MAX;
  const bn = /^[0-9]+$/.test(b) && BigInt(b) <= UINT64_MAX;
  if (!an && !bn) return a > b ? 1 : -1;
  if (!bn) return -1;
  if (!an) return 1;
  return BigInt(a) > BigInt(b) ? 1 : -1;
}

/** semver's comparison of prerelease strings, part by part. */
export function comparePrerelease(a: string, b: string): number {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = comparePart(x[i] ?? '', y[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

/** Version.Compare. */
export function compareVersions(v: SemverVersion, o: SemverVersion): number {
  for (const [a, b] of [
    [v.major, o.major],
    [v.minor, o.minor],
    [v.patch, o.patch],
  ] as const) {
    if (a !== b) return a < b ? -1 : 1;
  }
  if (v.pre === o.pre) return 0;
  if (v.pre === '') return 1;
  if (o.pre === '') return -1;
  return comparePrerelease(v.pre, o.pre);
}

/** sprig `semver "1.2.3"`: the version (fields `.Major`, `.Minor`, `.Patch`, `.Prerelease`, `.Metadata`). */
function semver(value: unknown): SemverVersion {
  const parsed = parseVersion(stringValue(value));
  if (typeof parsed === 'string') throw new TemplateProblem(`semver: ${parsed}`);
  return parsed;
}

/** The semver functions by name (semverCompare's constraint logic is in semver-constraints.ts). */
export function semverFunctions(check: (constraint: string, version: SemverVersion) => boolean): FunctionTable {
  return {
    semver: fn(semver),
    semverCompare: fn((constraint, version) => {
      const parsed = parseVersion(stringValue(version));
      if (typeof parsed === 'string') throw new TemplateProblem(`semverCompare: ${parsed}`);
      return check(stringValue(constraint), parsed);
    }),
  };
}
