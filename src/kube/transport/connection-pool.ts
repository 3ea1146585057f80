import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Agent as HttpAgent } from 'node:http';
import { nodeHttp as http } from '../../runtime/node-http.js';
import type { KubeConfig, TlsMaterial } from '../kubeconfig.js';
import { Http1Connections } from './http1-connections.js';
import { serverAddress } from './request-url.js';
import { StreamConnections } from './stream-connections.js';

/** How long resolved credentials are reused: a token refreshed on disk is picked up within this. */
const CREDENTIALS_TTL_MS = 5_000;

/** An idle connection is closed after this long. */
const IDLE_TIMEOUT_MS = 30_000;

/** A keep-alive agent whose connections share one secure context. */
export class PooledAgent extends https.Agent {}

/** How many connections a pool's requests share, and how many list pages it may stream at once. */
export interface PoolLimits {
  /** Keep-alive connections shared by JSON requests; a request beyond waits for one to come free. */
  readonly requests: number;
  /** Connections of list pages streamed at once (a watch has a connection of its own, outside this limit). */
  readonly streams: number;
}

/** What {@link ConnectionPool.credentials} hands a request: its headers and the connections to send through. */
export interface Credentials {
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The connections of JSON requests. */
  readonly requests: Http1Connections;
  /** The agent of list pages: a long list never takes a connection that writes wait for. */
  readonly streamAgent: HttpAgent;
  /** The connections of watches, one each, outside both limits. */
  readonly streams: StreamConnections;
}

/** The request connections, the list agent and the watch connections of one TLS policy. */
interface AgentPair {
  readonly requests: Http1Connections;
  readonly streamAgent: HttpAgent;
  readonly streams: StreamConnections;
}

/**
 * The one credential and TLS policy of a replica's transport: the kubeconfig's credentials, the keep-alive
 * connections of requests and list pages and the connections of watches, replaced when the TLS material
 * changes (a rotated client certificate or CA). Resolving credentials reads files or runs a plugin, so the
 * result is kept for a few seconds.
 *
 * Requests get a bounded number of connections on purpose. Each TLS connection costs 57-76 KiB of C heap,
 * and glibc keeps that memory after the connection closes: with one connection per write in flight (200 in a
 * converge), a replica held 6.5 MiB more at 1,000 Applications than with 32, for good. List pages and watches
 * hold their connections while they last, so they have connections of their own: they never take one that
 * writes wait for.
 */
export class ConnectionPool {
  private agents: AgentPair | undefined;
  private agentMaterial: TlsMaterial | undefined;
  private plainAgents: AgentPair | undefined;
  private cached: { at: number; credentials: Promise<Credentials> } | undefined;

  constructor(
    private readonly limits: PoolLimits,
    private readonly ttlMs = CREDENTIALS_TTL_MS,
  ) {
    for (const [name, value] of Object.entries(limits))
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`connection limit ${name} must be a positive integer, got ${value}`);
  }

  credentials(kc: KubeConfig): Promise<Credentials> {
    const now = performance.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) {
      const credentials = this.resolve(kc);
      this.cached = { at: now, credentials };
      credentials.catch(() => (this.cached = undefined)); // a failed resolution is not kept
    }
    return this.cached.credentials;
  }

  private async resolve(kc: KubeConfig): Promise<Credentials> {
    const { headers, tls: material } = await kc.connection();
    const agents = kc.server.startsWith('http:') ? this.plain(kc.server) : this.use(kc.server, material);
    return { headers, ...agents };
  }

  private plain(server: string): AgentPair {
    if (!this.plainAgents) {
      const { hostname: host, port } = serverAddress(server);
      const connect = (onread: net.OnReadOpts): net.Socket => net.connect({ host, port, onread });
      this.plainAgents = {
        requests: this.requestConnections(connect),
        streamAgent: new http.Agent({ keepAlive: true, maxSockets: this.limits.streams, timeout: IDLE_TIMEOUT_MS }),
        streams: new StreamConnections(connect),
      };
    }
    return this.plainAgents;
  }

  private use(server: string, material: TlsMaterial): AgentPair {
    if (!this.agents || !this.agentMaterial || !sameTlsMaterial(this.agentMaterial, material)) {
      const { ca, cert, key, rejectUnauthorized } = material;
      const { hostname: host, port } = serverAddress(server);
      // As Node's https agent: no SNI for an address; the certificate is checked against the servername if given, else the host.
      const servername = material.servername ?? (net.isIP(host) ? undefined : host);
      // One secure context for every connection: building it (parsing the CA bundle) is the costly part.
      // The agents' own options stay free of certificates: Node names its connection pools by them, per request.
      const secureContext = tls.createSecureContext({ ca, cert, key });
      // The replaced connections finish their requests and then close; the list agent's after their idle timeout;
      // a watch keeps its connection until it ends (within its timeoutSeconds).
      this.agents?.requests.retire();
      const connect = (onread: net.OnReadOpts): net.Socket => {
        // tls.connect takes net's `onread` since Node 15 (nodejs/node#35753); @types/node's ConnectionOptions leaves it out.
        const options: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
          host,
          port,
          secureContext,
          rejectUnauthorized,
          onread,
          ...(servername ? { servername } : {}),
        };
        return tls.connect(options);
      };
      this.agents = {
        requests: this.requestConnections(connect),
        streams: new StreamConnections(connect),
        streamAgent: new PooledAgent({
          secureContext,
          rejectUnauthorized,
          servername: material.servername,
          keepAlive: true,
          maxSockets: this.limits.streams,
          timeout: IDLE_TIMEOUT_MS,
        }),
      };
      this.agentMaterial = material;
    }
    return this.agents;
  }

  private requestConnections(connect: (onread: net.OnReadOpts) => net.Socket): Http1Connections {
    return new Http1Connections({ connect, maxConnections: this.limits.requests, idleTimeoutMs: IDLE_TIMEOUT_MS });
  }
}

function sameTlsMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  return a.ca === b.ca && a.cert === b.cert && a.key === b.key && a.rejectUnauthorized === b.rejectUnauthorized && a.servername === b.servername;
}
