import { createRequire } from 'node:module';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import type * as PinoPrettyModule from 'pino-pretty';

/** How log lines are written: JSON for machines, or coloured single lines for a terminal. */
export type LogFormat = 'json' | 'pretty';

/** Creates the process logger through pino on stdout. Called once, by the CLI wiring. */
export function createLogger(level: LevelWithSilent = 'info', format: LogFormat = 'json', name = 'appset-controller'): Logger {
  const options = { name, level, base: { pid: process.pid } };
  // pino-pretty as a synchronous stream, not a worker transport: one process, nothing to lose on exit.
  // One line per record, without the pid and host a terminal reader already knows. Loaded only here:
  // replicas log JSON, and pino-pretty with its dependencies is 1.1 MiB of heap.
  const pretty = (): PinoPrettyModule.PrettyStream => {
    const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule;
    return PinoPretty({ colorize: process.stdout.isTTY, sync: true, singleLine: true, ignore: 'pid,hostname,name' });
  };
  return format === 'pretty' ? pino(options, pretty()) : pino(options);
}

/**
 * A child logger for one ApplicationSet: every line it writes carries `appset: "namespace/name"`,
 * so one ApplicationSet's history can be filtered out of the shared log.
 */
export function applicationSetLogger(parent: Logger, key: string): Logger {
  return parent.child({ appset: key });
}
