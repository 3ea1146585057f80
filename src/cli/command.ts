import type { CommandOptions, CommandValues } from '../config/option-table.js';

/** Where a command writes its output; injected so tests can capture it. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  /** True when `out` is a terminal (colour is for terminals only); absent: not a terminal. */
  readonly isTerminal?: boolean;
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
  /** Exit code for an error the command did not turn into one itself (default 1; `diff` uses 1 for "changes"). */
  readonly failureExitCode?: number;
  run(values: CommandValues, positionals: string[], io: CommandIo): Promise<number>;
}
