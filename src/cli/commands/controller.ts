import type { Command } from '../command.js';
import { controllerSettings } from '../../config/controller-settings.js';
import { commandOptionsOf, optionHelpOf } from '../../config/option-table.js';
import { reportNotImplemented } from './not-yet.js';

/** `appset controller`: the long-running controller that reconciles ApplicationSets in a cluster. */
export const controllerCommand: Command = {
  name: 'controller',
  summary: 'run the controller against a Kubernetes cluster',
  usage: 'appset controller [options]',
  description: [
    'Watches ApplicationSets, runs their generators, renders Applications and keeps the owned',
    'Applications equal to what the generators say. Several replicas share work through Redis.',
  ].join('\n'),
  options: { help: { type: 'boolean', short: 'h' }, ...commandOptionsOf(controllerSettings) },
  optionHelp: { help: 'show this help', ...optionHelpOf(controllerSettings) },
  run: (_values, _positionals, io) => Promise.resolve(reportNotImplemented('controller', io)),
};
