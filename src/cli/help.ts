import type { Command } from './command.js';

/** Help text for the whole `appset` command, listing its subcommands. */
export function formatRootHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = [
    'appset: an ApplicationSet controller for Kubernetes and Argo CD manifests',
    '',
    'Usage: appset <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "appset <command> --help" for the options of one command.',
  ];
  return lines.join('\n') + '\n';
}

/** Help text for one subcommand: usage, description and every option. */
export function formatCommandHelp(command: Command): string {
  const flags = Object.entries(command.options).map(([name, option]) => {
    const short = option.short ? `-${option.short}, ` : '    ';
    const value = option.type === 'string' ? ` <${name.split('-').pop() ?? 'value'}>` : '';
    return { flag: `${short}--${name}${value}`, help: command.optionHelp[name] ?? '' };
  });
  const width = Math.max(...flags.map((f) => f.flag.length));
  const lines = [`Usage: ${command.usage}`, '', command.description, '', 'Options:', ...flags.map((f) => `  ${f.flag.padEnd(width)}  ${f.help}`)];
  return lines.join('\n') + '\n';
}
