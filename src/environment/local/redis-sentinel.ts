import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { ManagedProcess } from './managed-process.js';
import { ping, startRedis, type RedisServer } from './redis.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

/** The name the Sentinels know the master by (`--redis-sentinel-master`). */
export const SENTINEL_MASTER_NAME = 'appset';

/**
 * Sentinel timing of the test group, short so a failover takes seconds: a master that does not answer for
 * `downAfterMs` is subjectively down, two Sentinels agreeing make it objectively down and one of them
 * promotes the replica; a failover that stalls is retried after `failoverTimeoutMs`.
 */
export const SENTINEL_TIMING = { downAfterMs: 1_000, failoverTimeoutMs: 5_000 } as const;

/** One Sentinel: `redis-server CONF --sentinel` (Debian's `redis-sentinel` is only a link to it). */
export interface SentinelServer {
  readonly port: number;
  readonly process: ManagedProcess;
}

/** Who holds which role once the Sentinels agree. */
export interface SentinelRoles {
  readonly master: RedisServer;
  readonly replica: RedisServer;
}

/**
 * A Redis master, one replica and three Sentinels (quorum 2) on loopback ports, without persistence, as a
 * Sentinel install of the queue runs it. The data nodes keep their ports across restarts, so a node that
 * was master can come back and be turned into a replica by the Sentinels.
 */
export class SentinelGroup {
  private constructor(
    /** The two data nodes, in the order they started: the first started as master. */
    readonly nodes: readonly [RedisServer, RedisServer],
    readonly sentinels: readonly SentinelServer[],
  ) {}

  /** Starts the group and waits until every Sentinel knows the master, the replica and the other Sentinels. */
  static async start(run: RunDir): Promise<SentinelGroup> {
    const first = await startRedis(run, 'redis-server', [], 'redis-node-0');
    const second = await startRedis(run, 'redis-server', ['--replicaof', '127.0.0.1', String(first.port)], 'redis-node-1');
    const sentinels: SentinelServer[] = [];
    for (let i = 0; i < 3; i++) sentinels.push(await startSentinel(run, i, first.port));
    const group = new SentinelGroup([first, second], sentinels);
    await group.settled();
    return group;
  }

  /** `host:port,...` of the Sentinels, for `--redis-sentinels`. */
  get addresses(): string {
    return this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
  }

  /** The data node listening on `port`. */
  node(port: number): RedisServer {
    const node = this.nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no data node of the Sentinel group listens on port ${port}`);
    return node;
  }

  /** The port every Sentinel names as master now; throws while they disagree or one does not answer. */
  async masterPort(): Promise<number> {
    const ports = await Promise.all(
      this.sentinels.map(async (s) => {
        const reply = (await query(s.port, ['SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME])) as [string, string] | null;
        if (!reply) throw new Error(`Sentinel on ${s.port} knows no master ${SENTINEL_MASTER_NAME}`);
        return Number(reply[1]);
      }),
    );
    if (new Set(ports).size !== 1) throw new Error(`the Sentinels name different masters: ${ports.join(', ')}`);
    return ports[0] as number;
  }

  /**
   * Waits until the group is whole again: every Sentinel names one master, which says it is master with an
   * online replica, the other node replicates from it with its link up, and no Sentinel sees a failover
   * in progress or a node down. Returns the roles.
   */
  async settled(timeoutMs = 60_000): Promise<SentinelRoles> {
    return waitFor(
      async () => {
        for (const s of this.sentinels) s.process.assertRunning();
        const master = this.node(await this.masterPort());
        const replica = this.nodes.find((n) => n !== master) as RedisServer;
        const masterInfo = await replicationInfo(master.port);
        const replicaInfo = await replicationInfo(replica.port);
        if (masterInfo['role'] !== 'master' || !masterInfo['slave0']?.includes('state=online')) throw new Error(`master ${master.port} has no online replica`);
        if (replicaInfo['role'] !== 'slave' || replicaInfo['master_port'] !== String(master.port) || replicaInfo['master_link_status'] !== 'up')
          throw new Error(`node ${replica.port} does not replicate from ${master.port} yet`);
        for (const s of this.sentinels) {
          const flags = fields((await query(s.port, ['SENTINEL', 'master', SENTINEL_MASTER_NAME])) as string[])['flags'];
          if (flags !== 'master') throw new Error(`Sentinel ${s.port} flags the master ${flags}`);
          const replicas = ((await query(s.port, ['SENTINEL', 'replicas', SENTINEL_MASTER_NAME])) as string[][]).map(fields);
          if (!replicas.some((r) => r['port'] === String(replica.port) && r['flags'] === 'slave'))
            throw new Error(`Sentinel ${s.port} does not see ${replica.port} as a healthy replica`);
          const others = (await query(s.port, ['SENTINEL', 'sentinels', SENTINEL_MASTER_NAME])) as unknown[];
          if (others.length !== this.sentinels.length - 1) throw new Error(`Sentinel ${s.port} knows ${others.length} other Sentinels`);
        }
        return { master, replica };
      },
      { what: 'the Sentinel group to settle (one master, its replica online, every Sentinel agreeing)', timeoutMs, intervalMs: 200 },
    );
  }

  /** Stops every process of the group. */
  async stop(): Promise<void> {
    await Promise.all([...this.sentinels.map((s) => s.process.stop()), ...this.nodes.map((n) => n.process.stop())]);
  }
}

async function startSentinel(run: RunDir, index: number, masterPort: number): Promise<SentinelServer> {
  const name = `redis-sentinel-${index}`;
  const port = await freePort();
  const dir = join(run.root, name);
  mkdirSync(dir, { recursive: true });
  // A Sentinel rewrites its configuration file as it learns the group, so each has its own, writable.
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
      `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} ${SENTINEL_TIMING.downAfterMs}`,
      `sentinel failover-timeout ${SENTINEL_MASTER_NAME} ${SENTINEL_TIMING.failoverTimeoutMs}`,
      `sentinel parallel-syncs ${SENTINEL_MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  const process = new ManagedProcess(name, {
    command: 'redis-server',
    args: [config, '--sentinel'],
    logFile: join(run.logDir, `${name}.log`),
    pidDir: run.pidDir,
  });
  await process.start();
  await waitFor(
    async () => {
      process.assertRunning();
      return (await ping(port)) === '+PONG';
    },
    { what: `Sentinel PING on port ${port}`, timeoutMs: 20_000 },
  );
  return { port, process };
}

/** Sends one command to a loopback Redis or Sentinel on a connection of its own, which fails fast. */
export async function query(port: number, command: readonly string[]): Promise<unknown> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined); // the command's own rejection carries the failure
  try {
    await client.connect();
    const [name, ...args] = command;
    return await client.call(name as string, ...args);
  } finally {
    client.disconnect();
  }
}

/** `INFO replication` of a loopback node as fields. */
export async function replicationInfo(port: number): Promise<Record<string, string>> {
  const text = String(await query(port, ['INFO', 'replication']));
  return Object.fromEntries(
    text
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
}

/** A flat `[field, value, ...]` reply as an object. */
function fields(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}
