import { parseArgs } from 'node:util';
import type { Command, CommandIo } from './command.js';
import { controllerCommand } from './commands/controller.js';
import { diffCommand } from './commands/diff.js';
import { validateCommand } from './commands/validate.js';
import { localCommand } from './commands/local.js';
import { renderCommand } from './commands/render.js';
import { ExpectedFailure, isExpectedFailure } from './expected-failure.js';
import { formatCommandHelp, formatRootHelp } from './help.js';

/** Every subcommand of `appset`, in the order help lists them. */
export const commands: readonly Command[] = [controllerCommand, renderCommand, diffCommand, validateCommand, localCommand];

/** Exit code for a command line that could not be understood. */
export const USAGE_EXIT = 2;

const processIo: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  // NO_COLOR (no-color.org) turns colour off even on a terminal.
  get isTerminal() {
    return process.stdout.isTTY && !process.env.NO_COLOR;
  },
};

/** Runs `appset` with the given arguments and returns the process exit code. */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(formatRootHelp(commands));
    return name === undefined ? USAGE_EXIT : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`appset: unknown command "${name}"\n\n${formatRootHelp(commands)}`);
    return USAGE_EXIT;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`appset ${name}: ${(error as Error).message}\n\n${formatCommandHelp(command)}`);
    return USAGE_EXIT;
  }
  if (parsed.values.help === true) {
    io.out(formatCommandHelp(command));
    return 0;
  }
  try {
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (error) {
    // An expected failure is its message; anything else is a bug, and its stack helps whoever reports it.
    if (isExpectedFailure(error)) {
      io.err(`appset ${name}: ${error.message}\n`);
      return error instanceof ExpectedFailure ? error.exitCode : (command.failureExitCode ?? 1);
    }
    io.err(`appset ${name}: unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return command.failureExitCode ?? 1;
  }
}
