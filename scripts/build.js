// Compiles the TypeScript sources into dist/. `--if-stale` (the npm `prepare` script) builds only when
// dist/ is missing or older than a source file.
//
// Why `--if-stale` matters: on a machine with an empty npm cache, the first `npx appset` installs this
// folder into the npx cache and runs `prepare` here. A clean rebuild at that moment deletes dist/
// under every other process that is loading it (it broke a whole test run once), and makes the first
// `npx appset` wait for a full compile for nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const sourceRoots = ['src', 'test', 'bench', 'tsconfig.json', 'package.json'];
const builtMarker = join(dist, 'src', 'cli', 'main.js');

/** Newest modification time (ms) of a file or of any file below a folder; 0 when it does not exist. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

function isStale() {
  if (!existsSync(builtMarker)) return true;
  const newestSource = Math.max(...sourceRoots.map((p) => newestMtime(join(root, p))));
  return newestSource > statSync(builtMarker).mtimeMs;
}

if (process.argv.includes('--if-stale') && !isStale()) {
  console.log('build: dist/ is up to date');
} else {
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
