import type { Command, CommandIo } from '../command.js';
import { ExpectedFailure } from '../expected-failure.js';
import { parseRepoMappings } from '../repo-mappings.js';
import { assumptionSettings } from '../diff/assumption-settings.js';
import { commandOptionsOf, optionHelpOf, type CommandValues } from '../../config/option-table.js';

const OUTPUTS = ['text', 'markdown', 'json'] as const;

/** `appset diff`: what a change to ApplicationSets (Git mode) or to the cluster's (live mode) does to the Applications, and the controller's verdict. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'show which Applications a change creates, updates or deletes, and whether the controller would refuse it',
  usage: 'appset diff --repo REPO_URL=LOCAL_PATH --base REV [--head REV] [FILE...] | appset diff --live FILE... [-o text|markdown|json]',
  description: [
    'Git mode compares the ApplicationSets (and the repository their generators read) at --base with --head, or with',
    'the work tree (uncommitted and untracked files included) without --head. FILEs inside the repository are read',
    'at both revisions; without FILEs every ApplicationSet and AppProject manifest of the repository is. Live mode',
    "(--live, read only) compares the FILEs' Applications with what the cluster holds now. Each ApplicationSet goes",
    "through the controller's own stages: tenancy (AppProjects from --projects, the files and Argo CD's `default`, or",
    "the cluster's in live mode), quotas, Argo CD's validation, the sync policy, ownership and the deletion guard;",
    "a refusal is reported with exactly the controller's condition reason and message. Nothing is written.",
    'Exit status: 0 no change, 1 changes, 2 errors or refusals. The JSON schema is in docs/diff.md.',
  ].join('\n'),
  failureExitCode: 2,
  options: {
    help: { type: 'boolean', short: 'h' },
    output: { type: 'string', short: 'o' },
    repo: { type: 'string', multiple: true },
    base: { type: 'string' },
    head: { type: 'string' },
    live: { type: 'boolean' },
    kubeconfig: { type: 'string' },
    projects: { type: 'string' },
    clusters: { type: 'string' },
    ...commandOptionsOf(assumptionSettings),
  },
  optionHelp: {
    help: 'show this help',
    output: 'text (default; coloured on a terminal), markdown (for a pull-request comment) or json (docs/diff.md)',
    repo: 'a generator repoURL read from a local repository; in Git mode the first one is the repository compared (repeatable)',
    base: 'Git mode: the revision to compare against (branch, tag or commit of the first --repo)',
    head: 'Git mode: the revision previewed (default: the work tree)',
    live: 'live mode: compare with the cluster of the kubeconfig (read only)',
    kubeconfig: 'live mode: kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)',
    projects: "YAML file of AppProjects that decide over tenant ApplicationSets (instead of the cluster's in live mode)",
    clusters: "YAML file of Argo CD cluster Secrets (and SCM and plugin Secrets and ConfigMaps), as for render; live mode default: the cluster's",
    ...optionHelpOf(assumptionSettings),
  },
  async run(values, positionals, io) {
    const output = typeof values.output === 'string' ? values.output : 'text';
    if (!(OUTPUTS as readonly string[]).includes(output)) return usage(io, `-o must be one of ${OUTPUTS.join(', ')}, not "${output}"`);
    const repos = parseRepoMappings(values.repo);
    if (typeof repos === 'string') return usage(io, repos);
    const live = values.live === true;
    if (live && (values.base !== undefined || values.head !== undefined)) return usage(io, '--live compares with the cluster: leave out --base and --head');
    if (live && positionals.length === 0) return usage(io, '--live needs the ApplicationSet files to compare');
    if (!live && (typeof values.base !== 'string' || repos.size === 0))
      return usage(io, 'Git mode needs --repo REPO_URL=LOCAL_PATH and --base REV (or use --live)');
    const report = await runDiff(values, positionals, repos, live);
    const [{ formatText }, { formatMarkdown }, { diffExitCode }] = await Promise.all([
      import('../diff/format-text.js'),
      import('../diff/format-markdown.js'),
      import('../diff/diff-report.js'),
    ]);
    io.out(
      output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : output === 'markdown' ? formatMarkdown(report) : formatText(report, io.isTerminal === true),
    );
    return diffExitCode(report);
  },
};

/** Loads the diff modules (generators, Git, the template engine) only when the command runs. */
async function runDiff(values: CommandValues, files: string[], repos: Map<string, string>, live: boolean) {
  const [{ readAssumptions }, { readClusterSecrets, readConfigMaps, readDecisionObjects, RenderCommandError }, { ConfigError }] = await Promise.all([
    import('../diff/assumption-settings.js'),
    import('../render-applicationsets.js'),
    import('../../config/option-table.js'),
  ]);
  try {
    const assume = readAssumptions(values, process.env);
    const clustersFile = typeof values.clusters === 'string' ? values.clusters : undefined;
    const projectsFile = typeof values.projects === 'string' ? values.projects : undefined;
    const clusters = {
      secrets: readClusterSecrets(clustersFile),
      configMaps: readConfigMaps(clustersFile),
      decisionObjects: readDecisionObjects(clustersFile),
    };
    if (live) {
      const { liveDiff } = await import('../diff/live-mode.js');
      const kubeconfig = typeof values.kubeconfig === 'string' ? values.kubeconfig : undefined;
      return await liveDiff({
        files,
        repos,
        assume,
        ...(kubeconfig ? { kubeconfig } : {}),
        ...(projectsFile ? { projectsFile } : {}),
        ...(clustersFile ? { clusters } : {}),
      });
    }
    const { gitDiff } = await import('../diff/git-mode.js');
    const head = typeof values.head === 'string' ? values.head : undefined;
    return await gitDiff({
      repos,
      base: values.base as string,
      ...(head ? { head } : {}),
      files,
      ...(projectsFile ? { projectsFile } : {}),
      clusters: clusters.secrets,
      configMaps: clusters.configMaps,
      decisionObjects: clusters.decisionObjects,
      assume,
    });
  } catch (error) {
    if (error instanceof RenderCommandError || error instanceof ConfigError) throw new ExpectedFailure(error.message, 2);
    throw error;
  }
}

function usage(io: CommandIo, problem: string): number {
  io.err(`appset diff: ${problem}\n`);
  return 2;
}
