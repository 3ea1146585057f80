import { killAllManagedProcesses } from './managed-process.js';

let installed = false;

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Kills every managed process when this Node process exits, throws uncaught, or (with `exitOnSignals`)
 * is interrupted (SIGINT, SIGTERM, SIGHUP). A caller that stops gracefully on a signal (`appset local`)
 * passes false and exits itself. A SIGKILLed process cannot clean up: the next run reaps its leftovers.
 */
export function killManagedProcessesOnExit(exitOnSignals = true): void {
  if (installed) return;
  installed = true;
  process.once('exit', killAllManagedProcesses);
  if (!exitOnSignals) return;
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as Array<keyof typeof SIGNAL_EXIT_CODES>) {
    process.once(signal, () => {
      killAllManagedProcesses();
      process.exit(SIGNAL_EXIT_CODES[signal]);
    });
  }
}
