import type http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';

/** The TLS settings of client-node's per-request agent that decide which connection may be reused. */
const TLS_MATERIAL = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/** How long the credentials client-node resolved are reused: a token refreshed on disk is picked up within this. */
const CREDENTIALS_TTL_MS = 5_000;

/** A keep-alive agent whose connections share one secure context. */
export class PooledAgent extends https.Agent {}

/** What {@link ConnectionPool.credentials} hands a request: headers, TLS material and the agent to send through. */
export type Credentials = Pick<https.RequestOptions, 'headers' | 'auth' | (typeof TLS_MATERIAL)[number]> & { agent: http.Agent | undefined };

/**
 * The one credential and TLS policy of a replica's transport: the credentials of the kubeconfig and one
 * keep-alive agent, replaced when client-node's per-request
 * agent carries different TLS material. Resolving credentials builds a fresh agent and decodes
 * certificates every time, so the result is kept for a few seconds. Proxy agents and plain HTTP agents
 * are used as client-node built them.
 */
export class ConnectionPool {
  private agent: PooledAgent | undefined;
  private agentMaterial: https.AgentOptions | undefined;
  private cached: { at: number; credentials: Promise<Credentials> } | undefined;

  constructor(private readonly maxSockets: number) {}

  credentials(kc: KubeConfig): Promise<Credentials> {
    const now = performance.now();
    if (!this.cached || now - this.cached.at > CREDENTIALS_TTL_MS) {
      const credentials = this.resolve(kc);
      this.cached = { at: now, credentials };
      credentials.catch(() => (this.cached = undefined)); // a failed resolution is not kept
    }
    return this.cached.credentials;
  }

  private async resolve(kc: KubeConfig): Promise<Credentials> {
    const options: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(options);
    const { headers, auth, ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
    return { headers, auth, ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, agent: this.use(options.agent) };
  }

  private use(fresh: unknown): http.Agent | undefined {
    if (!(fresh instanceof https.Agent) || fresh.constructor !== https.Agent) return fresh as http.Agent | undefined;
    if (!this.agent || !this.agentMaterial || !sameTlsMaterial(this.agentMaterial, fresh.options)) {
      const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = fresh.options;
      // One secure context for every connection: building it (parsing the CA bundle) is the costly part.
      // The agent's own options stay free of certificates: Node names its connection pools by them, per request.
      const secureContext = tls.createSecureContext({ ca, cert, key, pfx, passphrase });
      // The replaced agent's connections finish their requests and then close after their idle timeout.
      this.agent = new PooledAgent({ secureContext, rejectUnauthorized, servername, keepAlive: true, maxSockets: this.maxSockets, timeout: 30_000 });
      this.agentMaterial = fresh.options;
    }
    return this.agent;
  }
}

function sameTlsMaterial(a: https.AgentOptions, b: https.AgentOptions): boolean {
  return TLS_MATERIAL.every((name) => sameValue(a[name], b[name]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return a === b;
}
