import { pino, type Logger, type LevelWithSilent } from 'pino';

/** Creates the process logger: JSON lines on stdout through pino. Called once, by the CLI wiring. */
export function createLogger(level: LevelWithSilent = 'info', name = 'appset-controller'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}

/**
 * A child logger for one ApplicationSet: every line it writes carries `appset: "namespace/name"`,
 * so one ApplicationSet's history can be filtered out of the shared log.
 */
export function applicationSetLogger(parent: Logger, key: string): Logger {
  return parent.child({ appset: key });
}
