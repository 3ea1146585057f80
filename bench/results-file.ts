import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The machine a benchmark ran on; stated next to every figure. */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

/** Describes this machine. */
export function machineInfo(): MachineInfo {
  return {
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
  };
}

/**
 * Writes `bench/results/<name>.json` with the machine info and the figures, and returns its path.
 * Resolved from the compiled file's location so it lands in the source tree, not in dist/.
 */
export function writeBenchResults(name: string, figures: unknown): string {
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}.json`;
  writeFileSync(file, JSON.stringify({ benchmark: name, machine: machineInfo(), figures }, null, 2) + '\n');
  return file;
}
