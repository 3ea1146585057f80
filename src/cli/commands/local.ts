import type { Command } from '../command.js';
import { ExpectedFailure } from '../expected-failure.js';

/** `appset local`: runs two controller replicas against a throw-away local cluster with an embedded example. */
export const localCommand: Command = {
  name: 'local',
  summary: 'run the controller on a local cluster with an embedded example',
  usage: 'appset local [options]',
  description: [
    'Starts a local kube-apiserver, etcd, kube-controller-manager, Redis and Git server (built from source',
    'on first use, cached afterwards), commits the example monorepo of examples/, applies its AppProject',
    'and ApplicationSets, runs two controller replicas sharing a BullMQ queue, prints the Applications,',
    'and keeps running until Ctrl-C, then cleans everything up. A push to the monorepo reaches the',
    'replicas as a signed webhook, so its Applications change within a second or two.',
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
    // Loaded here, not at the top: `appset --help` and `appset render` never pay for the controller.
    const [{ createLogger }, { startLocalSession }, { MissingPrerequisitesError }] = await Promise.all([
      import('../../log/logger.js'),
      import('../local-mode.js'),
      import('../../environment/ensure-prerequisites.js'),
    ]);
    const log = createLogger('warn', 'pretty');
    const say = (line: string): void => io.out(`appset local: ${line}\n`);
    let session;
    try {
      session = await startLocalSession(log, say, typeof values.file === 'string' ? values.file : undefined);
    } catch (error) {
      if (error instanceof MissingPrerequisitesError) throw new ExpectedFailure(error.message);
      throw error;
    }
    io.out(`\nApplications (${session.applications.length}):\n${session.applications.map((name) => `  ${name}`).join('\n')}\n\n`);
    io.out(`kubeconfig:  ${session.kubeconfigPath}\nmetrics:     ${session.metricsUrl}\nmonorepo:    ${session.repoUrl}\n`);
    io.out(
      [
        '',
        'Change the monorepo and watch the Applications follow within a second or two:',
        `  cd ${session.clonePath}          # a clone, ready to commit and push (or: git clone ${session.cloneUrl})`,
        '  mkdir platform/addons/metrics-server && echo "resources: []" > platform/addons/metrics-server/kustomization.yaml',
        '  git add -A && git commit -qm "add metrics-server" && git push -q',
        `  kubectl --kubeconfig ${session.kubeconfigPath} get applications.argoproj.io -A --watch`,
        '',
      ].join('\n'),
    );
    if (values['exit-when-ready'] !== true) {
      io.out('running; press Ctrl-C to stop and clean up\n');
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
