import type { Command } from '../command.js';
import { ExpectedFailure } from '../expected-failure.js';
import { parseRepoMappings } from '../repo-mappings.js';

/** `appset render`: prints the Applications ApplicationSet manifests would generate, without a cluster. */
export const renderCommand: Command = {
  name: 'render',
  summary: 'print the Applications ApplicationSet files generate',
  usage: 'appset render FILE... [--repo REPO_URL=LOCAL_PATH]... [--clusters FILE] [-o yaml|json]',
  description: [
    'Runs the generators and templates of every ApplicationSet in the files (multi-document YAML) through',
    "the controller's own code path and prints the Applications, sorted by namespace then name. Nothing",
    'is written to a cluster. Any error exits non-zero, names the ApplicationSet, and prints no Application.',
    'Every generated Application is checked as the controller checks it: its AppProject must exist (offline:',
    "Argo CD's `default` or an AppProject document in the files) and its destination must name a --clusters",
    'Secret or the local cluster (https://kubernetes.default.svc, in-cluster).',
  ].join('\n'),
  options: {
    help: { type: 'boolean', short: 'h' },
    output: { type: 'string', short: 'o' },
    repo: { type: 'string', multiple: true },
    clusters: { type: 'string' },
  },
  optionHelp: {
    help: 'show this help',
    output: 'yaml (default): one document per Application; json: one array',
    repo: "read a generator's repoURL from a local Git repository instead, e.g. https://git.example/org/apps.git=. (repeatable)",
    clusters:
      'YAML file of Argo CD cluster Secrets for the clusters generator and the destination check (default: only the local cluster), with any SCM or plugin token Secrets, plugin and clusterDecisionResource ConfigMaps, and the duck-typed objects clusterDecisionResource generators read',
  },
  async run(values, positionals, io) {
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

function usage(io: { err(text: string): void }, problem: string): number {
  io.err(`appset render: ${problem}\n`);
  return 2;
}
