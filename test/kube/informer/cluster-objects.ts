// Writes test objects to a real API server quickly: one keep-alive connection pool, bounded concurrency.
import { Agent, request } from 'node:https';
import type { Informer, KubeObject } from '../../../src/kube/informer/index.js';
import type { TestEnvironmentInfo } from '../../../src/environment/local/environment.js';

/** A connection to an API server for test writes. */
export class ApiWriter {
  private readonly agent: Agent;

  constructor(
    private readonly env: Pick<TestEnvironmentInfo, 'apiServerUrl' | 'adminToken' | 'caPem'>,
    maxSockets = 16,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets, ca: env.caPem });
  }

  /** Sends one request; resolves with the parsed JSON answer, rejects on a non-2xx status with its body. */
  send<T = unknown>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.env.apiServerUrl}${path}`,
        {
          method,
          agent: this.agent,
          headers: { authorization: `Bearer ${this.env.adminToken}`, 'content-type': contentType, accept: 'application/json' },
          timeout: 30_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) reject(new Error(`${method} ${path}: HTTP ${status}: ${text.slice(0, 300)}`));
            else resolve((text ? JSON.parse(text) : undefined) as T);
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /** POSTs every body to `collectionPath`, at most `concurrency` at a time. */
  async createAll(collectionPath: string, bodies: readonly object[], concurrency = 16): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < bodies.length) {
        const body = bodies[next++];
        await this.send('POST', collectionPath, body);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
  }

  /** Merge-patches one object. */
  patch<T = unknown>(path: string, patch: unknown): Promise<T> {
    return this.send<T>('PATCH', path, patch, 'application/merge-patch+json');
  }

  /** `name -> resourceVersion` of everything in the collection, from a fresh list: the truth to compare caches with. */
  async versions(collectionPath: string, query = ''): Promise<Map<string, string>> {
    const list = await this.send<{ items: Array<{ metadata: { name: string; resourceVersion: string } }> }>('GET', `${collectionPath}${query}`);
    return new Map(list.items.map((item) => [item.metadata.name, item.metadata.resourceVersion]));
  }

  /** Closes the pooled connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** A small ConfigMap body. */
export function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = { value: name }): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

/** Deletes `/registry/<resource>/<namespace>/<name>` straight from etcd: a change the API server never served. */
export async function deleteFromEtcd(etcdUrl: string, resource: string, namespace: string, name: string): Promise<void> {
  const key = Buffer.from(`/registry/${resource}/${namespace}/${name}`).toString('base64');
  const response = await fetch(`${etcdUrl}/v3/kv/deleterange`, { method: 'POST', body: JSON.stringify({ key }) });
  const body = (await response.json()) as { deleted?: string };
  if (!response.ok || body.deleted !== '1') throw new Error(`etcd delete of ${resource}/${namespace}/${name}: HTTP ${response.status} ${JSON.stringify(body)}`);
}

/** `name -> resourceVersion` of what an informer holds, to compare with {@link ApiWriter.versions}. */
export function cachedVersions<T extends KubeObject>(informer: Informer<T>): Map<string, string> {
  return new Map(informer.store.list().map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']));
}
