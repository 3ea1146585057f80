import type { Command } from '../command.js';
import { controllerSettings } from '../../config/controller-settings.js';
import { readControllerConfig } from '../../config/controller-config.js';
import { commandOptionsOf, ConfigError, optionHelpOf } from '../../config/option-table.js';
import { deferModuleLoading, REPLICA_DEFERRED_MODULES } from '../../runtime/deferred-modules.js';

/** `appset controller`: the long-running controller that reconciles ApplicationSets in a cluster. */
export const controllerCommand: Command = {
  name: 'controller',
  summary: 'run the controller against a Kubernetes cluster',
  usage: 'appset controller [options]',
  description: [
    'Watches ApplicationSets, runs their generators, renders Applications and keeps the owned',
    'Applications equal to what the generators say. Several replicas share work through Redis.',
  ].join('\n'),
  options: { help: { type: 'boolean', short: 'h' }, ...commandOptionsOf(controllerSettings) },
  optionHelp: { help: 'show this help', ...optionHelpOf(controllerSettings) },
  async run(values, _positionals, io) {
    let config;
    try {
      config = readControllerConfig(values);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.err(`appset controller: ${error.message}\n`);
      return 2;
    }
    // Before the controller's packages load, so that what they require and never use stays unloaded.
    deferModuleLoading(REPLICA_DEFERRED_MODULES);
    // Loaded only when the controller runs: BullMQ and the controller's modules take a while to import.
    const [{ startController }, { loadKubeConfig }, { createLogger }] = await Promise.all([
      import('../../app/start-replica.js'),
      import('../../kube/kubeconfig.js'),
      import('../../log/logger.js'),
    ]);
    const log = createLogger(config.logLevel, config.logFormat);
    const controller = await startController(config, loadKubeConfig(config.kubeconfig), log);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    log.info({ signal }, 'shutting down: draining reconciles in flight');
    await controller.stop();
    return 0;
  },
};
