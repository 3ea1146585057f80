import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One stderr line of argocd-render: an ApplicationSet Argo CD refused, wholly (errors) or in part (invalid Applications). */
export interface ArgoCdReport {
  applicationSet: string;
  errors?: string[];
  invalidApplications?: Record<string, string>;
  ignored?: string;
}

/** What Argo CD did with one corpus file: the Applications it created and its reports. */
export interface ArgoCdResult {
  applications: unknown[];
  reports: ArgoCdReport[];
}

/** Whether a report says Argo CD refused something (an ignored ApplicationSet is not a refusal). */
export const refuses = (report: ArgoCdReport): boolean => (report.errors?.length ?? 0) > 0 || Object.keys(report.invalidApplications ?? {}).length > 0;

/** Runs argocd-render (`binary`) with `appset render`'s arguments and `-o json`; a failure of the tool itself throws. */
export async function renderWithArgoCd(binary: string, args: readonly string[]): Promise<ArgoCdResult> {
  let stdout: string;
  let stderr: string;
  try {
    ({ stdout, stderr } = await run(binary, [...args, '-o', 'json'], { maxBuffer: 256 * 1024 * 1024 }));
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    throw new Error(`argocd-render failed (exit ${failed.code ?? '?'}): ${failed.stderr ?? String(error)}`, { cause: error });
  }
  // Reports are JSON lines naming an ApplicationSet; anything else is a library's log line the tool did not silence.
  const reports = stderr
    .split('\n')
    .filter((line) => line.startsWith('{"applicationSet":'))
    .map((line) => JSON.parse(line) as ArgoCdReport);
  return { applications: JSON.parse(stdout) as unknown[], reports };
}
