import type { CommandIo } from '../command.js';

/** Exit code of a subcommand whose behaviour is not built yet: distinct from success and from bad usage. */
export const NOT_IMPLEMENTED_EXIT = 3;

/** Says plainly that a subcommand exists but does not work yet, so nobody mistakes it for a success. */
export function reportNotImplemented(name: string, io: CommandIo): number {
  io.err(`appset ${name}: not implemented yet; see "appset ${name} --help" for what it will do\n`);
  return NOT_IMPLEMENTED_EXIT;
}
