import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { ManagedProcess } from './managed-process.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

/** A running single-member etcd on loopback. */
export interface EtcdServer {
  clientUrl: string;
  process: ManagedProcess;
  /** Waits until etcd answers its health check. */
  ready(): Promise<void>;
  /**
   * Compacts the key-value history up to the current revision, so older watches get 410 Gone. With
   * `advance`, first writes a marker key, so the compacted revision is newer than any a watcher has seen.
   */
  compact(options?: { advance?: boolean }): Promise<number>;
}

/** Starts etcd with a temporary data dir and fsync off (test data need not survive a power cut). */
export async function startEtcd(binary: string, run: RunDir): Promise<EtcdServer> {
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const dataDir = join(run.root, 'etcd');
  mkdirSync(dataDir, { recursive: true });
  const process = new ManagedProcess('etcd', {
    command: binary,
    args: [
      '--name=test',
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=test=${peerUrl}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ],
    logFile: join(run.logDir, 'etcd.log'),
    pidDir: run.pidDir,
  });
  const ready = async (): Promise<void> => {
    await waitFor(
      async () => {
        process.assertRunning();
        const response = await fetch(`${clientUrl}/health`);
        const body = (await response.json()) as { health?: string };
        return body.health === 'true';
      },
      { what: 'etcd /health', timeoutMs: 30_000 },
    );
  };
  const compact = async (options: { advance?: boolean } = {}): Promise<number> => {
    const status = options.advance
      ? await postJson<{ header: { revision: string } }>(`${clientUrl}/v3/kv/put`, {
          key: btoa('/appset-test/compaction-marker'),
          value: btoa(String(Date.now())),
        })
      : await postJson<{ header: { revision: string } }>(`${clientUrl}/v3/kv/range`, { key: btoa('\0') });
    const revision = Number(status.header.revision);
    await postJson(`${clientUrl}/v3/kv/compaction`, { revision: String(revision), physical: true });
    return revision;
  };
  await process.start();
  await ready();
  return { clientUrl, process, ready, compact };
}

async function postJson<T = unknown>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`etcd ${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
