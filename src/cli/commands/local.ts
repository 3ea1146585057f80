import type { Command } from '../command.js';
import { createLogger } from '../../log/logger.js';
import { startLocalSession } from '../local-mode.js';

/** `appset local`: runs two controller replicas against a throw-away local cluster with an embedded example. */
export const localCommand: Command = {
  name: 'local',
  summary: 'run the controller on a local cluster with an embedded example',
  usage: 'appset local [options]',
  description: [
    'Starts a local kube-apiserver, etcd, kube-controller-manager, Redis and Git server (built from source',
    'on first use, cached afterwards), commits the example monorepo of examples/, applies its AppProject',
    'and ApplicationSets, runs two controller replicas sharing a BullMQ queue, prints the Applications,',
    'and keeps running until Ctrl-C, then cleans everything up.',
  ].join('\n'),
  options: {
    help: { type: 'boolean', short: 'h' },
    file: { type: 'string', short: 'f' },
    'exit-when-ready': { type: 'boolean' },
  },
  optionHelp: {
    help: 'show this help',
    file: 'ApplicationSet manifest to apply instead of the examples',
    'exit-when-ready': 'stop and clean up once the Applications are printed (for scripts and tests)',
  },
  async run(values, _positionals, io) {
    const log = createLogger('warn');
    const session = await startLocalSession(log, (line) => io.out(`appset local: ${line}\n`), typeof values.file === 'string' ? values.file : undefined);
    io.out(`\nApplications (${session.applications.length}):\n${session.applications.map((name) => `  ${name}`).join('\n')}\n\n`);
    io.out(`kubeconfig:  ${session.kubeconfigPath}\nmetrics:     ${session.metricsUrl}\nmonorepo:    ${session.repoUrl}\n`);
    if (values['exit-when-ready'] !== true) {
      io.out('\nrunning; press Ctrl-C to stop and clean up\n');
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
    await session.stop();
    io.out('appset local: stopped and cleaned up\n');
    return 0;
  },
};
