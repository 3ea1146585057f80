import type { CommandOptions, CommandValues } from '../config/option-table.js';

/** Where a command writes its output; injected so tests can capture it. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** One `appset` subcommand: its help text, flags and behaviour. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly description: string;
  readonly options: CommandOptions;
  /** Help line for each option, keyed by option name. */
  readonly optionHelp: Readonly<Record<string, string>>;
  run(values: CommandValues, positionals: string[], io: CommandIo): Promise<number>;
}
