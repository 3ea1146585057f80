import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { debianPackagesFor, findMissing, findOnPath, pathAdditions, type Prerequisite, type Surroundings } from './prerequisites.js';
import { AppsetError } from '../model/errors.js';

/** Some programs a command needs are missing and could not be installed; the message says what to run. */
export class MissingPrerequisitesError extends AppsetError {
  override readonly name = 'MissingPrerequisitesError';
}

/** Installs Debian packages; returns the output of a failed install, or undefined on success. */
export type DebianInstaller = (packages: readonly string[], aptGet: string) => string | undefined;

/** What {@link ensurePrerequisites} needs besides the list. */
export interface EnsureOptions {
  /** The command the user ran, for the messages (`npm test`, `appset local`). */
  readonly command: string;
  readonly surroundings: Surroundings;
  /** One line to the user (what is being installed and why). */
  readonly say: (line: string) => void;
  /** Injected in tests; defaults to apt-get update and install. */
  readonly install?: DebianInstaller;
}

/**
 * Makes sure every program in `needs` is there before any build starts. Missing Debian packages are
 * installed when the process is root and apt-get is on `PATH`; anything still missing throws one
 * {@link MissingPrerequisitesError} naming every program and the command that installs it. Returns the
 * folders to add to `PATH` for programs found off it (Go in /usr/local/go/bin).
 */
export function ensurePrerequisites(needs: readonly Prerequisite[], options: EnsureOptions): string[] {
  const { surroundings } = options;
  let missing = findMissing(needs, surroundings);
  const aptGet = findOnPath('apt-get', surroundings.path);
  const installable = debianPackagesFor(missing);
  let installFailure: string | undefined;
  if (installable.length > 0 && surroundings.isRoot && aptGet !== undefined) {
    const reasons = missing.filter((p) => p.debianPackage !== undefined).map((p) => `${p.program}: ${p.why}`);
    options.say(`${options.command}: installing Debian packages ${installable.join(', ')} (${reasons.join('; ')})`);
    installFailure = (options.install ?? aptGetInstall)(installable, aptGet);
    missing = findMissing(needs, surroundings);
  }
  if (missing.length > 0) throw new MissingPrerequisitesError(missingMessage(options.command, missing, surroundings, installFailure));
  return pathAdditions(needs, surroundings);
}

/** The one message for what is missing: each program, why it is needed, and how to install it. */
export function missingMessage(command: string, missing: readonly Prerequisite[], surroundings: Surroundings, installFailure?: string): string {
  const width = Math.max(...missing.map((p) => p.program.length));
  const lines = ['missing programs, so nothing was built or started:'];
  for (const p of missing) lines.push(`  ${p.program.padEnd(width)}  ${p.why}`);
  const packages = debianPackagesFor(missing);
  if (installFailure !== undefined)
    lines.push(
      '',
      `apt-get could not install them:`,
      ...installFailure
        .trim()
        .split('\n')
        .slice(-5)
        .map((l) => `  ${l}`),
    );
  lines.push('', 'Install them with:');
  if (packages.length > 0)
    lines.push(`  ${surroundings.isRoot ? '' : 'sudo '}apt-get update && ${surroundings.isRoot ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`);
  for (const p of missing) if (p.manualInstall !== undefined) lines.push(`  ${p.program}: ${p.manualInstall}`);
  lines.push(`then run ${command} again.`);
  return lines.join('\n');
}

/** apt-get update, then a quiet non-interactive install; the output is kept for a failure message. */
function aptGetInstall(packages: readonly string[], aptGet: string): string | undefined {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const result = spawnSync(aptGet, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) return `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`;
  }
  return undefined;
}

/** Adds `folders` to the front of this process's `PATH`, so the builds it starts find those programs. */
export function extendProcessPath(folders: readonly string[]): void {
  if (folders.length > 0) process.env.PATH = [...folders, process.env.PATH ?? ''].join(delimiter);
}
