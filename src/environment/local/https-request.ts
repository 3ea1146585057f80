import { request } from 'node:https';

/** Answer of {@link httpsRequest}. */
export interface HttpsAnswer {
  status: number;
  body: string;
}

/** Options of {@link httpsRequest}. */
export interface HttpsRequestOptions {
  method?: string;
  token?: string;
  /** PEM bundle to trust; undefined trusts nothing beyond the defaults, `false` trusts anything. */
  ca?: string | false;
  body?: string;
  timeoutMs?: number;
}

/** One HTTPS request with a custom CA and bearer token (node's fetch cannot take a CA without undici). */
export function httpsRequest(url: string, options: HttpsRequestOptions = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        ca: options.ca === false ? undefined : options.ca,
        rejectUnauthorized: options.ca !== false,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body ? { 'content-type': 'application/json' } : {}),
        },
        timeout: options.timeoutMs ?? 5_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout requesting ${url}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
