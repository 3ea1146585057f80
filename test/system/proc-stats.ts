import { readFileSync } from 'node:fs';
import type { TestEnvironment } from '../../src/environment/local/environment.js';
import { httpsRequest } from '../../src/environment/local/https-request.js';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory of a process in MiB, from /proc/<pid>/status. */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

/** Peak resident memory of a process in MiB (VmHWM, the high-water mark since it started), from /proc/<pid>/status. */
export function peakRssMiB(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

/** Request counts by `verb resource` summed from the kube-apiserver's `apiserver_request_total`. */
export type RequestCounts = Map<string, number>;

/** Reads `apiserver_request_total` from the API server's /metrics. */
export async function apiServerRequests(env: TestEnvironment): Promise<RequestCounts> {
  const answer = await httpsRequest(`${env.apiServer.url}/metrics`, { token: env.apiServer.adminToken, ca: env.apiServer.caPem, timeoutMs: 30_000 });
  if (answer.status !== 200) throw new Error(`kube-apiserver /metrics answered ${answer.status}`);
  const counts: RequestCounts = new Map();
  for (const match of answer.body.matchAll(/^apiserver_request_total\{([^}]*)\} (\S+)$/gm)) {
    const labels = new Map([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l): [string, string] => [l[1] ?? '', l[2] ?? '']));
    const subresource = labels.get('subresource');
    const key = `${labels.get('verb') ?? '?'} ${labels.get('resource') ?? '?'}${subresource ? `/${subresource}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(match[2]));
  }
  return counts;
}

/** Requests between two readings, by key, leaving out keys with no change. */
export function requestDelta(before: RequestCounts, after: RequestCounts): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [key, value] of after) {
    const change = value - (before.get(key) ?? 0);
    if (change > 0) delta[key] = change;
  }
  return delta;
}
