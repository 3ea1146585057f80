import https from 'node:https';
import tls from 'node:tls';
import type { Agent as HttpAgent } from 'node:http';
import { nodeHttp as http } from '../../runtime/node-http.js';
import type { KubeConfig, TlsMaterial } from '../kubeconfig.js';

/** How long resolved credentials are reused: a token refreshed on disk is picked up within this. */
const CREDENTIALS_TTL_MS = 5_000;

/** A keep-alive agent whose connections share one secure context. */
export class PooledAgent extends https.Agent {}

/** What {@link ConnectionPool.credentials} hands a request: its headers and the agent to send through. */
export interface Credentials {
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly agent: HttpAgent;
}

/**
 * The one credential and TLS policy of a replica's transport: the kubeconfig's credentials and one
 * keep-alive agent, replaced when the TLS material changes (a rotated client certificate or CA). Resolving
 * credentials reads files or runs a plugin, so the result is kept for a few seconds.
 */
export class ConnectionPool {
  private agent: PooledAgent | undefined;
  private agentMaterial: TlsMaterial | undefined;
  private plainAgent: HttpAgent | undefined;
  private cached: { at: number; credentials: Promise<Credentials> } | undefined;

  constructor(
    private readonly maxSockets: number,
    private readonly ttlMs = CREDENTIALS_TTL_MS,
  ) {}

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
    return { headers, agent: kc.server.startsWith('http:') ? this.plain() : this.use(material) };
  }

  private plain(): HttpAgent {
    this.plainAgent ??= new http.Agent({ keepAlive: true, maxSockets: this.maxSockets, timeout: 30_000 });
    return this.plainAgent;
  }

  private use(material: TlsMaterial): PooledAgent {
    if (!this.agent || !this.agentMaterial || !sameTlsMaterial(this.agentMaterial, material)) {
      const { ca, cert, key, rejectUnauthorized, servername } = material;
      // One secure context for every connection: building it (parsing the CA bundle) is the costly part.
      // The agent's own options stay free of certificates: Node names its connection pools by them, per request.
      const secureContext = tls.createSecureContext({ ca, cert, key });
      // The replaced agent's connections finish their requests and then close after their idle timeout.
      this.agent = new PooledAgent({ secureContext, rejectUnauthorized, servername, keepAlive: true, maxSockets: this.maxSockets, timeout: 30_000 });
      this.agentMaterial = material;
    }
    return this.agent;
  }
}

function sameTlsMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  return a.ca === b.ca && a.cert === b.cert && a.key === b.key && a.rejectUnauthorized === b.rejectUnauthorized && a.servername === b.servername;
}
