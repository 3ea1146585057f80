// Builds the benchmark monorepo in one commit through `git fast-import`: writing 50,000 files and
// committing them through a work tree would take minutes; a fast-import stream takes seconds.
import { execFileSync, spawn } from 'node:child_process';

/** Shape of the generated repository. */
export interface MonorepoShape {
  teams: number;
  appsPerTeam: number;
  filesPerDirectory: number;
}

/** 100 teams × 99 apps: 10,000 directories; 5 files in each: 50,000 files. */
export const BENCH_SHAPE: MonorepoShape = { teams: 100, appsPerTeam: 99, filesPerDirectory: 5 };

/** Counts the directories and files a shape produces. */
export function shapeCounts(shape: MonorepoShape): { directories: number; files: number } {
  const directories = shape.teams * (1 + shape.appsPerTeam);
  return { directories, files: directories * shape.filesPerDirectory };
}

function* directories(shape: MonorepoShape): Generator<string> {
  for (let t = 0; t < shape.teams; t++) {
    const team = `team-${String(t).padStart(3, '0')}`;
    yield team;
    for (let a = 0; a < shape.appsPerTeam; a++) yield `${team}/app-${String(a).padStart(3, '0')}`;
  }
}

/**
 * The fast-import stream of one commit on `main` holding every file of `shape`. File names include
 * their folder's name, so all 10,000 trees are distinct objects as in a real monorepo; file `n` of
 * every folder shares one blob (the benchmark lists directories, and 50,000 distinct blobs only
 * slow the set-up down).
 */
function fastImportStream(shape: MonorepoShape): string {
  const parts: string[] = [];
  for (let f = 0; f < shape.filesPerDirectory; f++) {
    const content = `file: ${f}\n`;
    parts.push(`blob\nmark :${f + 1}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  const message = 'generated monorepo\n';
  parts.push(`commit refs/heads/main\ncommitter Bench <bench@example.test> 1700000000 +0000\ndata ${Buffer.byteLength(message)}\n${message}`);
  for (const dir of directories(shape)) {
    for (let f = 0; f < shape.filesPerDirectory; f++) parts.push(`M 100644 :${f + 1} ${dir}/${dir.replace('/', '-')}-${f}.yaml\n`);
  }
  parts.push('\ndone\n');
  return parts.join('');
}

/** Creates a bare repository at `path` holding the monorepo, with HEAD on `main`. */
export async function createMonorepo(path: string, shape: MonorepoShape): Promise<void> {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', path]);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: path, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited with ${code}`))));
    child.stdin.end(fastImportStream(shape));
  });
  // A served repository is normally packed with deltas; fast-import's pack is not.
  execFileSync('git', ['repack', '-a', '-d', '-q'], { cwd: path });
}
