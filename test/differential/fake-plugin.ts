// A plugin service for the differential cases of the plugin generator: both renderers POST the same request to
// it. It answers one parameter set per name in `input.parameters.apps`, with nested maps, numbers, booleans and a
// null, so both template styles see every kind of value; a request without the token gets a 401.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the cluster file's plugin ConfigMap names the service; the harness puts the real origin in its place. */
export const PLUGIN_PLACEHOLDER = 'http://plugin.differential.test';

/** The token of the plugin Secret in clusters.yaml. */
const TOKEN = 'differential-plugin-token';

interface PluginRequest {
  applicationSetName?: string;
  input?: { parameters?: { apps?: unknown } };
}

function answer(request: PluginRequest): unknown {
  const apps = Array.isArray(request.input?.parameters?.apps) ? request.input.parameters.apps : [];
  return {
    output: {
      parameters: apps.map((app, i) => ({
        name: String(app),
        appset: request.applicationSetName ?? '',
        owner: { team: `team-${String(app)}`, contact: { channel: `#${String(app)}` } },
        replicas: 2 + i,
        big: 2500000,
        enabled: i % 2 === 0,
        nothing: null,
        tags: ['a', String(app)],
      })),
    },
  };
}

/** Starts the service on a free loopback port; returns its origin and a stop function. */
export async function startFakePlugin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
      const known = req.method === 'POST' && req.url === '/api/v1/getparams.execute';
      res.writeHead(!known ? 404 : authorized ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(known && authorized ? answer(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as PluginRequest) : {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
