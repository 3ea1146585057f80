import { TerminalError } from '../../model/action.js';
import { AppsetError } from '../../model/errors.js';

/**
 * A plugin call that failed: its ConfigMap or Secret is missing or malformed, or the plugin answered badly
 * (status, time limit, size, JSON, shape). Retried with backoff: the plugin or the platform's objects may
 * recover without the ApplicationSet changing. The message names the ConfigMap and the problem.
 */
export class PluginError extends AppsetError {
  override readonly name: string = 'PluginError';
}

/**
 * A plugin call the tenancy or address rules refused before anything was sent. Terminal: only a change of the
 * ApplicationSet, the platform's ConfigMap or Secret, or the controller's flags can lift it.
 */
export class PluginRequestRefused extends TerminalError {
  override readonly name: string = 'PluginRequestRefused';
}
