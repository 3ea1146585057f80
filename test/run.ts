// The test command: starts the real test environment once, runs every test file with node's test
// runner against it, and tears the environment down however the run ends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrerequisites, extendProcessPath, MissingPrerequisitesError } from '../src/environment/ensure-prerequisites.js';
import { processSurroundings, TEST_PREREQUISITES } from '../src/environment/prerequisites.js';
import { BinaryBuildError, buildParts, reported, type BinaryPart } from '../src/environment/local/binaries.js';
import { TestEnvironment } from '../src/environment/local/environment.js';
import { ENV_INFO_VARIABLE } from './env/shared-environment.js';
import { createRunTemp } from './run-temp.js';

const testRoot = fileURLToPath(new URL('.', import.meta.url));

/** Test files under the compiled test folder: `*.test.js`, integration ones named `*.int.test.js`. */
function findTestFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return findTestFiles(path);
      return entry.endsWith('.test.js') ? [path] : [];
    });
}

/** Outcome of one `node --test` batch: its exit code and the pass/fail counts of its TAP summary. */
interface BatchResult {
  code: number;
  passed: number;
  failed: number;
}

/**
 * Runs `files` with node's test runner, `concurrency` files at once: the spec reporter on the console,
 * TAP into a file whose summary gives the counts for the closing line.
 */
function runNodeTests(files: string[], env: NodeJS.ProcessEnv, concurrency: number, tapFile: string): Promise<BatchResult> {
  const args = [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    `--test-concurrency=${concurrency}`,
    ...files,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
      const count = (name: string): number => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
      resolve({ code: code ?? (signal ? 1 : 0), passed: count('pass'), failed: count('fail') + count('cancelled') });
    });
  });
}

/** The differential tests (test/differential/) compare with Argo CD's own code (argocd-render); they need no cluster. */
const isDifferential = (file: string): boolean => file.includes(`${sep}differential${sep}`);

/** Environment variable the differential tests read the argocd-render binary's path from. */
const ARGOCD_RENDER_VARIABLE = 'APPSET_ARGOCD_RENDER';

/** Latency-bound end-to-end tests (`*.serial.int.test.js`) run alone, after the rest, so other files' load does not skew them. */
const isSerial = (file: string): boolean => file.endsWith('.serial.int.test.js');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unitOnly = args.includes('--unit');
  const filters = args.filter((a) => !a.startsWith('--'));
  let files = findTestFiles(testRoot).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (unitOnly) files = files.filter((f) => !f.endsWith('.int.test.js'));
  if (files.length === 0) {
    console.error('run-tests: no test files matched');
    return 1;
  }
  const needsEnvironment = files.some((f) => f.endsWith('.int.test.js') && !isDifferential(f));
  // Only the integration tests run argocd-render; the differential harness's own unit tests do not.
  const needsArgocd = files.some((f) => isDifferential(f) && f.endsWith('.int.test.js'));
  // The live parity tests run Argo CD's own controller and repo-server (built with argocd-render) on the environment.
  const needsArgocdServers = files.some((f) => f.endsWith('.int.test.js') && f.includes(`${sep}argocd-live${sep}`));
  const needsHelm = files.some((f) => f.includes(`${sep}chart${sep}`));
  // The forge (Gitea) tests are the integration tests of test/scm/.
  const needsGitea = files.some((f) => f.endsWith('.int.test.js') && f.includes(`${sep}scm${sep}`));
  let giteaBinary: string | undefined;
  let argocdRender: string | undefined;
  const started = performance.now();
  let environment: TestEnvironment | undefined;
  if (needsEnvironment || needsArgocd) {
    // Every system program first, so a fresh machine learns what it lacks before minutes of builds.
    extendProcessPath(
      ensurePrerequisites(TEST_PREREQUISITES, { command: 'npm test', surroundings: processSurroundings(), say: (line) => console.error(line) }),
    );
  }
  if (needsEnvironment) {
    // Every Go-built part up front (helm only for the chart tests, Gitea for the forge tests), with progress, not inside a test's timeout.
    const parts: BinaryPart[] = [
      'etcd',
      'kube',
      ...(needsHelm ? (['helm'] as const) : []),
      ...(needsGitea ? (['gitea'] as const) : []),
      ...(needsArgocd || needsArgocdServers ? (['argocd'] as const) : []),
    ];
    const buildStarted = performance.now();
    const built = await buildParts(parts);
    giteaBinary = needsGitea ? reported(built, 'GITEA_BIN') : undefined;
    argocdRender = needsArgocd ? reported(built, 'ARGOCD_RENDER_BIN') : undefined;
    console.error(`run-tests: ${parts.join(', ')} built or cached in ${seconds(buildStarted)} s`);
  } else if (needsArgocd) {
    // Only the differential tests: Argo CD's code, built up front (minutes when cold), and no environment.
    const buildStarted = performance.now();
    argocdRender = reported(await buildParts(['argocd']), 'ARGOCD_RENDER_BIN');
    console.error(`run-tests: argocd built or cached in ${seconds(buildStarted)} s`);
  }
  const runTemp = createRunTemp();
  const env: NodeJS.ProcessEnv = { ...process.env, ...runTemp.env };
  if (argocdRender) env[ARGOCD_RENDER_VARIABLE] = argocdRender;
  if (needsEnvironment) {
    console.error(`run-tests: starting the test environment (etcd, kube-apiserver, kube-controller-manager, redis, git${giteaBinary ? ', gitea' : ''})`);
    environment = await TestEnvironment.start(giteaBinary ? { giteaBinary } : {});
    env[ENV_INFO_VARIABLE] = environment.writeInfoFile();
    const steps = Object.entries(environment.timings)
      .map(([step, s]) => `${step} ${s}s`)
      .join(', ');
    console.error(`run-tests: environment up in ${seconds(started)} s (${steps}); logs in ${environment.run.logDir}`);
  }
  const testsStarted = performance.now();
  let code = 1;
  let passed = 0;
  let failed = 0;
  try {
    const batches: Array<[string[], number]> = [
      [files.filter((f) => !isSerial(f)), availableParallelism()],
      [files.filter(isSerial), 1],
    ];
    code = 0;
    for (const [i, [batch, concurrency]] of batches.entries()) {
      if (batch.length === 0) continue;
      const result = await runNodeTests(batch, env, concurrency, join(runTemp.path, `results-${i}.tap`));
      code = code || result.code;
      passed += result.passed;
      failed += result.failed;
    }
  } finally {
    const keep = code !== 0 && process.env.CI !== 'true';
    await environment?.stop(keep);
    runTemp.finish(keep);
    if (keep) console.error(`run-tests: kept ${[environment?.run.root, runTemp.path].filter(Boolean).join(' and ')} for inspection`);
  }
  console.error(`run-tests: ${files.length} files, tests ${seconds(testsStarted)} s, whole run ${seconds(started)} s, exit ${code}`);
  // The closing line counts both batches (the spec reporter's summaries count one batch each).
  console.log(`run-tests: ${passed} passed, ${failed} failed`);
  return code !== 0 || failed > 0 || passed === 0 ? code || 1 : 0;
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A missing program is an expected failure: its message says what to install, and a stack adds nothing.
    if (error instanceof MissingPrerequisitesError || error instanceof BinaryBuildError) console.error(`npm test: ${error.message}`);
    else console.error('run-tests: failed:', error);
    process.exit(1);
  },
);
