/** PEM material and verification settings of the TLS connections to the API server. */
export interface TlsMaterial {
  /** PEM bundle of trusted CAs; the system's when absent. */
  readonly ca?: string;
  /** PEM client certificate and its key. */
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
  /** Name the server's certificate is checked against instead of the URL's host. */
  readonly servername?: string;
}

/** What one request needs to reach the API server as the kubeconfig's user: headers and TLS material. */
export interface Connection {
  /** Authorization and impersonation headers. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly tls: TlsMaterial;
}

/**
 * One kubeconfig context, resolved: the API server's URL, the context's namespace and a function that gives
 * the current credentials (token files and certificate files are read again, exec plugins run again once
 * their credential expired), so rotated credentials are picked up.
 */
export interface KubeConfig {
  /** Base URL of the API server, without a trailing slash. */
  readonly server: string;
  /** The context's namespace, if it sets one. */
  readonly namespace: string | undefined;
  /** Resolves the credentials and TLS material to use now. */
  readonly connection: () => Promise<Connection>;
}
