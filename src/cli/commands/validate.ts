import type { Command, CommandIo } from '../command.js';
import { commandOptionsOf, optionHelpOf, type CommandOptions, type CommandValues } from '../../config/option-table.js';
import { ExpectedFailure } from '../expected-failure.js';
import { parseRepoMappings } from '../repo-mappings.js';
import { assumptionSettings } from '../diff/assumption-settings.js';

/** What `appset validate` checks, in its help and in `appset render --check`'s. */
export const VALIDATION_CHECKS = [
  'Checks every ApplicationSet in the files offline, as the controller and the API server would: each manifest against the',
  'openAPIV3Schema of the CRD this project installs (crds/), as the API server does with strict field validation (unknown',
  'fields, types, enums, required fields, bounds, patterns; name, namespace, labels and annotations), AppProject documents',
  'of the files and of --projects against the AppProject CRD; then tenancy (AppProjects from --projects, the files and Argo',
  "CD's `default`), the generators, the templates and the generated names, quotas and Argo CD's validation of the generated",
  "Applications, through the controller's own code. Prints nothing and exits 0 when all pass; otherwise prints one line per",
  'ApplicationSet or AppProject with the reason and message (InvalidManifest for what the API server would refuse) and exits',
  '1 (2 for a command line or file that cannot be read).',
].join('\n');

/** The flags of the checks, shared by `appset validate` and `appset render --check`. */
export const validationOptions: CommandOptions = {
  repo: { type: 'string', multiple: true },
  projects: { type: 'string' },
  clusters: { type: 'string' },
  ...commandOptionsOf(assumptionSettings),
};

/** Help lines of {@link validationOptions}. */
export const validationOptionHelp: Readonly<Record<string, string>> = {
  repo: "read a generator's repoURL from a local Git repository instead, e.g. https://git.example/org/apps.git=. (repeatable)",
  projects: 'YAML file of AppProjects that decide over tenant ApplicationSets (checked against the AppProject CRD too)',
  clusters: 'YAML file of Argo CD cluster Secrets (and SCM and plugin Secrets and ConfigMaps), as for render',
  ...optionHelpOf(assumptionSettings),
};

/**
 * Runs the checks over the files and prints each problem on standard error: 0 when all pass, 1 with problems;
 * a command line or file that cannot be read is an ExpectedFailure with exit code 2.
 */
export async function runValidation(command: string, values: CommandValues, positionals: readonly string[], io: CommandIo): Promise<number> {
  const usage = (problem: string): number => {
    io.err(`appset ${command}: ${problem}\n`);
    return 2;
  };
  if (positionals.length === 0) return usage('name at least one ApplicationSet file');
  const repos = parseRepoMappings(values.repo);
  if (typeof repos === 'string') return usage(repos);
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
}

/** `appset validate`: the pre-merge check of ApplicationSet files: silent when the controller would accept them. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check ApplicationSet files as the API server and the controller would; silent when they pass',
  usage: 'appset validate FILE... [--repo REPO_URL=LOCAL_PATH]... [--projects FILE] [--clusters FILE]',
  description: VALIDATION_CHECKS,
  failureExitCode: 2,
  options: { help: { type: 'boolean', short: 'h' }, ...validationOptions },
  optionHelp: { help: 'show this help', ...validationOptionHelp },
  run: (values, positionals, io) => runValidation('validate', values, positionals, io),
};
