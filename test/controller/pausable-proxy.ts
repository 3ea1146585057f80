import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';

/**
 * A TCP proxy in front of the API server (TLS passes through untouched) that can hold back every
 * byte the server sends, so one replica's watches and lists fall behind while requests still reach
 * the server. Used to give one replica a stale cache on purpose.
 */
export class PausableProxy {
  private paused = false;
  private readonly held: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();
  /** Client connections accepted so far. */
  accepted = 0;
  private readonly doomed = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  /** Starts a proxy on a free loopback port forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<PausableProxy> {
    const server = createServer();
    const proxy = new PausableProxy(server);
    server.on('connection', (client: Socket) => proxy.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Holds back the server's bytes on every connection, old and new, until {@link resume}. */
  pause(): void {
    this.paused = true;
  }

  /** Delivers what was held back, in order, and lets bytes flow again. */
  resume(): void {
    this.paused = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /** A copy of `kc` whose current cluster is reached through this proxy. */
  kubeConfigThrough(kc: KubeConfig, make: () => KubeConfig): KubeConfig {
    const copy = make();
    const current = kc.getCurrentCluster();
    if (!current) throw new Error('kubeconfig has no current cluster');
    copy.loadFromOptions({
      clusters: kc.clusters.map((c) => (c.name === current.name ? { ...c, server: `https://127.0.0.1:${this.port}` } : c)),
      users: kc.users,
      contexts: kc.contexts,
      currentContext: kc.currentContext,
    });
    return copy;
  }

  /**
   * Makes every connection open now close as soon as the client sends on it again, without passing the
   * bytes on: what a client sees when the server closed an idle keep-alive connection just as it reused it.
   */
  closeOpenConnectionsOnReuse(): void {
    for (const socket of this.sockets) this.doomed.add(socket);
  }

  async close(): Promise<void> {
    this.resume();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    this.accepted++;
    const upstream = connect(target.port, target.host);
    this.sockets.add(client).add(upstream);
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      this.doomed.delete(client);
    };
    client.on('data', (chunk) => {
      if (this.doomed.has(client)) closeBoth();
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.paused) this.held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', () => (this.paused ? this.held.push(closeBoth) : closeBoth())).on('error', closeBoth);
  }
}
