import type { Command } from '../command.js';
import { ExpectedFailure } from '../expected-failure.js';
import { parseRepoMappings } from '../repo-mappings.js';
import { runValidation, VALIDATION_CHECKS, validationOptionHelp, validationOptions } from './validate.js';

/** `appset render`: prints the Applications ApplicationSet manifests would generate, without a cluster. */
export const renderCommand: Command = {
  name: 'render',
  summary: 'print the Applications ApplicationSet files generate',
  usage: 'appset render FILE... [--repo REPO_URL=LOCAL_PATH]... [--clusters FILE] [-o yaml|json] | appset render --check FILE... [validate flags]',
  description: [
    'Runs the generators and templates of every ApplicationSet in the files (multi-document YAML) through',
    "the controller's own code path and prints the Applications, sorted by namespace then name. Nothing",
    'is written to a cluster. Any error exits non-zero, names the ApplicationSet, and prints no Application.',
    'Every generated Application is checked as the controller checks it: its AppProject must exist (offline:',
    "Argo CD's `default` or an AppProject document in the files) and its destination must name a --clusters",
    'Secret or the local cluster (https://kubernetes.default.svc, in-cluster).',
    '',
    'With --check it prints no Application and runs `appset validate` instead (the same code and flags):',
    VALIDATION_CHECKS,
  ].join('\n'),
  options: {
    help: { type: 'boolean', short: 'h' },
    output: { type: 'string', short: 'o' },
    check: { type: 'boolean' },
    ...validationOptions,
  },
  optionHelp: {
    ...validationOptionHelp,
    help: 'show this help',
    output: 'yaml (default): one document per Application; json: one array',
    check: 'print no Application: check the files as `appset validate` does (silent on success, the problems and exit 1 on failure)',
    clusters:
      'YAML file of Argo CD cluster Secrets for the clusters generator and the destination check (default: only the local cluster), with any SCM or plugin token Secrets, plugin and clusterDecisionResource ConfigMaps, and the duck-typed objects clusterDecisionResource generators read',
  },
  async run(values, positionals, io) {
    if (values.check === true) {
      if (values.output !== undefined) return usage(io, '-o has no meaning with --check, which prints no Application');
      return runValidation('render --check', values, positionals, io);
    }
    const checkOnly = Object.keys(validationOptions).filter((flag) => !RENDER_FLAGS.has(flag) && values[flag] !== undefined);
    if (checkOnly.length > 0) return usage(io, `${checkOnly.map((f) => `--${f}`).join(', ')} only with --check`);
    const output = typeof values.output === 'string' ? values.output : 'yaml';
    if (output !== 'yaml' && output !== 'json') return usage(io, `-o must be yaml or json, not "${output}"`);
    if (positionals.length === 0) return usage(io, 'name at least one ApplicationSet file');
    const repos = parseRepoMappings(values.repo);
    if (typeof repos === 'string') return usage(io, repos);
    // Loaded here so `appset --help` does not pay for the generators, Git and the template engine.
    const [{ stringify }, { readClusterSecrets, readConfigMaps, readDecisionObjects, renderFiles, RenderCommandError }] = await Promise.all([
      import('yaml'),
      import('../render-applicationsets.js'),
    ]);
    try {
      const clustersFile = typeof values.clusters === 'string' ? values.clusters : undefined;
      const clusters = readClusterSecrets(clustersFile);
      const applications = await renderFiles({
        files: positionals,
        repos,
        clusters,
        configMaps: readConfigMaps(clustersFile),
        decisionObjects: readDecisionObjects(clustersFile),
      });
      io.out(output === 'json' ? `${JSON.stringify(applications, null, 2)}\n` : applications.map((app) => `---\n${stringify(app)}`).join(''));
      return 0;
    } catch (error) {
      if (error instanceof RenderCommandError) throw new ExpectedFailure(error.message);
      throw error;
    }
  },
};

/** The flags plain `render` reads; the rest of the validation flags are for --check. */
const RENDER_FLAGS = new Set(['repo', 'clusters']);

function usage(io: { err(text: string): void }, problem: string): number {
  io.err(`appset render: ${problem}\n`);
  return 2;
}
