import type { Command } from '../command.js';
import { ExpectedFailure } from '../expected-failure.js';

/** `appset local`: runs two controller replicas against a throw-away local cluster with an embedded example. */
export const localCommand: Command = {
  name: 'local',
  summary: 'run the controller on a local cluster with an embedded example',
  usage: 'appset local [options]',
  description: [
    'Starts a local kube-apiserver, etcd, kube-controller-manager, Redis and Git server (built from source',
    "on first use, cached afterwards), commits the example monorepo of examples/, creates Argo CD's default",
    "AppProject, applies the examples' AppProject and ApplicationSets, runs two controller replicas sharing",
    'a BullMQ queue, prints the Applications, and keeps running until Ctrl-C, then cleans everything up.',
    'A push to the monorepo reaches the replicas as a signed webhook, so its Applications change within',
    'a second or two.',
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
    let session: Awaited<ReturnType<typeof startLocalSession>> | undefined;
    const interrupted = untilInterrupted(() => session !== undefined);
    try {
      session = await startLocalSession(log, say, typeof values.file === 'string' ? values.file : undefined);
    } catch (error) {
      // A missing program or a failed Go build has said what is wrong; a stack would only bury it.
      if (error instanceof MissingPrerequisitesError || (error instanceof Error && error.name === 'BinaryBuildError')) throw new ExpectedFailure(error.message);
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
      await interrupted;
    }
    io.out('appset local: stopping the replicas and the local cluster\n');
    await session.stop();
    io.out('appset local: stopped and cleaned up\n');
    return 0;
  },
};

/**
 * Resolves on the first SIGINT or SIGTERM once `running()` is true, so the session stops gracefully.
 * A signal while it still starts, or a second one while it stops, exits at once: the exit hook of the
 * environment kills its servers, and the next run removes what is left of its folder.
 */
function untilInterrupted(running: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (): void => {
      if (!running() || stopping) process.exit(130);
      stopping = true;
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
