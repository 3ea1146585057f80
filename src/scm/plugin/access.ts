import type { PluginParameters } from './plugin-answer.js';

/** One plugin generator's question: which plugin, for which ApplicationSet, with which input. */
export interface PluginRequest {
  /** `configMapRef.name`: a ConfigMap of the controller's namespace. */
  readonly configMapName: string;
  readonly applicationSetName: string;
  /** `input.parameters`, sent as they are. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** What the plugin generator may use to reach plugin services; nothing else reaches it. */
export interface PluginAccess {
  /**
   * Calls the plugin the ConfigMap names and returns its `output.parameters`. Throws a PluginRequestRefused
   * naming the rule (before anything is sent) when this caller may not use the ConfigMap, its token Secret or
   * the address of its `baseUrl`, and a PluginError naming the ConfigMap for any other failure.
   */
  call(request: PluginRequest, signal: AbortSignal): Promise<PluginParameters[]>;
}
