import type { Command, CommandIo } from '../command.js';
import { commandOptionsOf, optionHelpOf } from '../../config/option-table.js';
import { ExpectedFailure } from '../expected-failure.js';
import { parseRepoMappings } from '../repo-mappings.js';
import { assumptionSettings } from '../diff/assumption-settings.js';

/** `appset validate`: the pre-merge check of ApplicationSet files: silent when the controller would accept them. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check ApplicationSet files as the controller would; silent when they pass',
  usage: 'appset validate FILE... [--repo REPO_URL=LOCAL_PATH]... [--projects FILE] [--clusters FILE]',
  description: [
    'Checks every ApplicationSet in the files offline: the fields the API server requires, tenancy (AppProjects from',
    "--projects, the files and Argo CD's `default`), the generators, the templates and the generated names, quotas",
    "and Argo CD's validation of the generated Applications, through the controller's own code. Prints nothing and",
    "exits 0 when all pass; otherwise prints one line per ApplicationSet with the controller's condition reason and",
    'message and exits 1 (2 for a command line or file that cannot be read).',
  ].join('\n'),
  failureExitCode: 2,
  options: {
    help: { type: 'boolean', short: 'h' },
    repo: { type: 'string', multiple: true },
    projects: { type: 'string' },
    clusters: { type: 'string' },
    ...commandOptionsOf(assumptionSettings),
  },
  optionHelp: {
    help: 'show this help',
    repo: "read a generator's repoURL from a local Git repository instead (repeatable)",
    projects: 'YAML file of AppProjects that decide over tenant ApplicationSets',
    clusters: 'YAML file of Argo CD cluster Secrets (and SCM and plugin Secrets and ConfigMaps), as for render',
    ...optionHelpOf(assumptionSettings),
  },
  async run(values, positionals, io) {
    if (positionals.length === 0) return usage(io, 'name at least one ApplicationSet file');
    const repos = parseRepoMappings(values.repo);
    if (typeof repos === 'string') return usage(io, repos);
    const [{ validateFiles }, { RenderCommandError }, { ConfigError }] = await Promise.all([
      import('../diff/validate-files.js'),
      import('../render-applicationsets.js'),
      import('../../config/option-table.js'),
    ]);
    try {
      const problems = await validateFiles({
        files: positionals,
        repos,
        flags: values,
        ...(typeof values.projects === 'string' ? { projectsFile: values.projects } : {}),
        ...(typeof values.clusters === 'string' ? { clustersFile: values.clusters } : {}),
      });
      for (const problem of problems) io.err(`${problem}\n`);
      return problems.length > 0 ? 1 : 0;
    } catch (error) {
      if (error instanceof RenderCommandError || error instanceof ConfigError) throw new ExpectedFailure(error.message, 2);
      throw error;
    }
  },
};

function usage(io: CommandIo, problem: string): number {
  io.err(`appset validate: ${problem}\n`);
  return 2;
}
