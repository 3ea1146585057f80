// Redis-side measurements for the queue benchmark: command counts (INFO commandstats, MONITOR) and
// redis-benchmark's figures for the same command mix on this machine.
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';

/** Calls per command name. */
export type CommandCounts = Record<string, number>;

/** Calls per command since the server started, from INFO commandstats (script-internal calls included). */
export async function commandStats(url: string): Promise<CommandCounts> {
  const redis = new Redis(url);
  try {
    const info = await redis.info('commandstats');
    const counts: CommandCounts = {};
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts[match[1] ?? ''] = Number(match[2]);
    return counts;
  } finally {
    redis.disconnect();
  }
}

/** after − before, per command, dropping zeros and the INFO calls of the measurement itself. */
export function countsBetween(before: CommandCounts, after: CommandCounts): CommandCounts {
  const diff: CommandCounts = {};
  for (const [name, calls] of Object.entries(after)) {
    const delta = calls - (before[name] ?? 0);
    if (delta > 0 && name !== 'info') diff[name] = delta;
  }
  return diff;
}

/** Sum of all counts. */
export function total(counts: CommandCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/**
 * Runs `action` while MONITOR watches, and counts the commands clients sent (round trips, at most:
 * a pipeline sends several in one) apart from those that Lua scripts ran inside Redis.
 */
export async function topLevelCommandsDuring(
  url: string,
  action: () => Promise<void>,
): Promise<{ clientCommands: CommandCounts; scriptCommands: CommandCounts }> {
  const redis = new Redis(url);
  const monitor = await redis.monitor();
  // ioredis can misread a MONITOR line that races with disconnect as a reply; losing one line is fine.
  let monitorErrors = 0;
  monitor.on('error', () => monitorErrors++);
  redis.on('error', () => monitorErrors++);
  const clientCommands: CommandCounts = {};
  const scriptCommands: CommandCounts = {};
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const name = (args[0] ?? '').toLowerCase();
    const counts = source === 'lua' ? scriptCommands : clientCommands;
    counts[name] = (counts[name] ?? 0) + 1;
  });
  try {
    await action();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    monitor.disconnect();
    redis.disconnect();
  }
  if (monitorErrors > 0) console.warn(`MONITOR connection reported ${monitorErrors} errors; counts may miss a few commands`);
  return { clientCommands, scriptCommands };
}

/** Requests per second redis-benchmark reaches for each command, 50 clients, no pipelining. */
export function redisBenchmarkRates(port: number, requests = 50_000): Record<string, number> {
  const rates: Record<string, number> = {};
  const run = (label: string, args: string[]): void => {
    const csv = execFileSync('redis-benchmark', ['-h', '127.0.0.1', '-p', String(port), '-c', '50', '-n', String(requests), '--csv', ...args], {
      encoding: 'utf8',
    });
    const line = csv.split('\n').find((l) => /^"[^"]/.test(l) && !l.startsWith('"test"'));
    rates[label] = Number(line?.split(',')[1]?.replaceAll('"', '') ?? Number.NaN);
  };
  for (const test of ['ping_mbulk', 'set', 'get', 'incr', 'lpush', 'rpop', 'sadd', 'hset', 'zadd', 'zpopmin', 'lrange_100']) run(test, ['-t', test]);
  // A script call that does nothing: the fixed cost of EVALSHA, which most of BullMQ's work goes through.
  run('eval', ['eval', 'return 1', '0']);
  return rates;
}

/** The redis-benchmark rate used as the cost of one call of `command` (a close stand-in when it has no test of its own). */
export function rateFor(command: string, rates: Record<string, number>): number {
  const direct: Record<string, string> = { evalsha: 'eval', eval: 'eval', ping: 'ping_mbulk', lrange: 'lrange_100', zpopmin: 'zpopmin', bzpopmin: 'zpopmin' };
  const known = direct[command] ?? (command in rates ? command : undefined);
  const writes = /^(h|z|s|l|r|x|set|del|incr|expire|pexpire|persist|unlink)/;
  const fallback = writes.test(command) ? 'set' : 'get';
  return rates[known ?? fallback] ?? Number.NaN;
}

/** Keys per second Redis could serve if every key cost `perKey` calls at redis-benchmark's rates. */
export function keysPerSecondCeiling(perKey: CommandCounts, rates: Record<string, number>): number {
  const secondsPerKey = Object.entries(perKey).reduce((sum, [command, calls]) => sum + calls / rateFor(command, rates), 0);
  return 1 / secondsPerKey;
}
