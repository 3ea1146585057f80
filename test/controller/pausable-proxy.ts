import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { KubeConfig } from '../../src/kube/kubeconfig.js';

/**
 * A TCP proxy in front of the API server (TLS passes through untouched) that can hold back every
 * byte the server sends, so one replica's watches and lists fall behind while requests still reach
 * the server. Used to give one replica a stale cache on purpose. Paused with `requests: true`, it also
 * holds back what clients send: nothing reaches the server, as in a network partition.
 */
export class PausableProxy {
  private paused = false;
  private holdingRequests = false;
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

  /**
   * Holds back the server's bytes on every connection, old and new, until {@link resume}; with `requests`,
   * the clients' bytes too, so no request reaches the server while paused.
   */
  pause(options: { requests?: boolean } = {}): void {
    this.paused = true;
    this.holdingRequests = options.requests ?? false;
  }

  /**
   * Delivers what was held back, in order, and lets bytes flow again. Bytes held for a connection that has
   * closed meanwhile (e.g. the server went away) are dropped: they never reached the server.
   */
  resume(): void {
    this.paused = false;
    this.holdingRequests = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /** A copy of `kc` that reaches its API server through this proxy. */
  kubeConfigThrough(kc: KubeConfig): KubeConfig {
    return { server: `https://127.0.0.1:${this.port}`, namespace: kc.namespace, connection: kc.connection };
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
    const toServer = (chunk: Buffer): void => void (upstream.destroyed || upstream.write(chunk));
    const toClient = (chunk: Buffer): void => void (client.destroyed || client.write(chunk));
    client.on('data', (chunk: Buffer) => {
      if (this.doomed.has(client)) closeBoth();
      else if (this.paused && this.holdingRequests) this.held.push(() => toServer(chunk));
      else toServer(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (this.paused) this.held.push(() => toClient(chunk));
      else toClient(chunk);
    });
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', () => (this.paused ? this.held.push(closeBoth) : closeBoth())).on('error', closeBoth);
  }
}
