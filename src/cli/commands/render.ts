import type { Command } from '../command.js';
import { reportNotImplemented } from './not-yet.js';

/** `appset render`: prints the Applications an ApplicationSet manifest would generate, without a cluster. */
export const renderCommand: Command = {
  name: 'render',
  summary: 'print the Applications an ApplicationSet file generates',
  usage: 'appset render [options] <applicationset.yaml>',
  description: [
    'Runs the generators and the templates of one ApplicationSet manifest and prints the resulting',
    'Applications as YAML. Nothing is written to a cluster.',
  ].join('\n'),
  options: {
    help: { type: 'boolean', short: 'h' },
    output: { type: 'string', short: 'o' },
    'clusters-file': { type: 'string' },
  },
  optionHelp: {
    help: 'show this help',
    output: 'output format: yaml (default) or json',
    'clusters-file': 'YAML file of Argo CD cluster Secrets for the clusters generator',
  },
  run: (_values, _positionals, io) => Promise.resolve(reportNotImplemented('render', io)),
};
