import { createApiClient, type ApiRequestRecord } from '../http/api-client.js';
import { ScmApiError, ScmRequestRefused } from '../http/errors.js';
import { PluginError, PluginRequestRefused } from './errors.js';
import { readPluginAnswer, type PluginParameters } from './plugin-answer.js';

/** The path Argo CD's plugin generator POSTs to, relative to the ConfigMap's `baseUrl`. */
export const PLUGIN_PATH = 'api/v1/getparams.execute';

/** One call of a plugin service. */
export interface PluginCallOptions {
  /** `ns/name` of the plugin ConfigMap, named in every error. */
  readonly configMap: string;
  readonly baseUrl: string;
  readonly token: string;
  /** The ApplicationSet's name, sent as `applicationSetName` (Argo CD sends the name only). */
  readonly applicationSetName: string;
  /** The generator's `input.parameters`, sent as they are. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The whole call's time limit, retries included. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Why traffic may not go to a resolved address (tenants' SSRF rules), checked at connect time. */
  readonly refusedAddress?: (address: string) => string | undefined;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/**
 * POSTs `{applicationSetName, input: {parameters}}` to `<baseUrl>/api/v1/getparams.execute` with the bearer
 * token and returns `output.parameters`. Every failure is a PluginError naming the ConfigMap and the problem
 * (a refusal by the address rules a PluginRequestRefused); an aborted `signal` rejects with its reason.
 */
export async function callPlugin(options: PluginCallOptions, signal: AbortSignal): Promise<PluginParameters[]> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const where = `plugin ConfigMap ${options.configMap}`;
  try {
    const client = createApiClient({
      baseUrl: options.baseUrl,
      auth: { kind: 'bearer', token: options.token },
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      ...(options.refusedAddress ? { refusedAddress: options.refusedAddress } : {}),
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    });
    const body = { applicationSetName: options.applicationSetName, input: { parameters: options.parameters } };
    const answer = await client.request(PLUGIN_PATH, both, { method: 'POST', body });
    return readPluginAnswer(answer.body, where);
  } catch (error) {
    if (signal.aborted) throw error;
    if (deadline.aborted) throw new PluginError(`${where}: the plugin at ${options.baseUrl} gave no answer within ${options.timeoutMs / 1000} s`);
    if (error instanceof ScmRequestRefused) throw new PluginRequestRefused(`${where}: ${error.message}; nothing was sent`);
    if (error instanceof ScmApiError) throw new PluginError(`${where}: ${error.message}`);
    throw error;
  }
}
