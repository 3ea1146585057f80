import type { ParseArgsConfig } from 'node:util';
import { AppsetError } from '../model/errors.js';

/** Options of one subcommand, in the shape node's `util.parseArgs` takes. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** Parsed flag values of one subcommand. */
export type CommandValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One setting of a command: its flag, its environment variable, its help, and how its text is read. */
export interface SettingSpec<T> {
  /** Flag name without dashes, e.g. `redis-url`. */
  readonly flag: string;
  /** Environment variable read when the flag is absent, e.g. `APPSET_REDIS_URL`. */
  readonly env: string;
  readonly help: string;
  readonly kind: 'string' | 'boolean' | 'list';
  /** Turns the raw text into the value; throws an Error whose message says what is wrong. */
  parse(raw: string): T;
  readonly fallback: T;
}

/** A table of settings keyed by their name in the typed config. */
export type SettingTable = Readonly<Record<string, SettingSpec<unknown>>>;

/** The typed values a {@link SettingTable} produces. */
export type ValuesOf<Table extends SettingTable> = { readonly [K in keyof Table]: Table[K] extends SettingSpec<infer T> ? T : never };

/** The node `parseArgs` options of a table, for a subcommand's flag parser. */
export function commandOptionsOf(table: SettingTable): CommandOptions {
  return Object.fromEntries(
    Object.values(table).map((s) => [s.flag, s.kind === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: s.kind === 'list' }]),
  );
}

/** Help lines of a table, mentioning each environment variable. */
export function optionHelpOf(table: SettingTable): Record<string, string> {
  return Object.fromEntries(Object.values(table).map((s) => [s.flag, `${s.help} [$${s.env}]`]));
}

/** A setting that could not be read, with every problem listed, so a user fixes them all at once. */
export class ConfigError extends AppsetError {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Reads every setting: the flag if given, else the environment variable, else the fallback.
 * Lists are comma-separated in the environment and repeatable as flags. Returns a frozen object.
 */
export function readSettings<Table extends SettingTable>(table: Table, flags: CommandValues, env: NodeJS.ProcessEnv): ValuesOf<Table> {
  const problems: string[] = [];
  const entries = Object.entries(table).map(([key, spec]) => {
    const raw = rawValue(spec, flags, env);
    if (raw === undefined) return [key, spec.fallback] as const;
    try {
      return [key, spec.parse(raw)] as const;
    } catch (error) {
      problems.push(`--${spec.flag} / $${spec.env}: ${(error as Error).message}`);
      return [key, spec.fallback] as const;
    }
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(Object.fromEntries(entries)) as ValuesOf<Table>;
}

function rawValue(spec: SettingSpec<unknown>, flags: CommandValues, env: NodeJS.ProcessEnv): string | undefined {
  const flag = flags[spec.flag];
  if (Array.isArray(flag)) return flag.length > 0 ? flag.map(String).join(',') : undefined;
  if (typeof flag === 'boolean') return String(flag);
  if (typeof flag === 'string') return flag;
  const fromEnv = env[spec.env];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}
