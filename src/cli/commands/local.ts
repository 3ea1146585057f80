import type { Command } from '../command.js';
import { reportNotImplemented } from './not-yet.js';

/** `appset local`: runs the controller against a throw-away local cluster with an embedded example. */
export const localCommand: Command = {
  name: 'local',
  summary: 'run the controller on a local test cluster with an embedded example',
  usage: 'appset local [options]',
  description: [
    'Starts a local kube-apiserver and etcd, installs the CRDs, applies an embedded example',
    'ApplicationSet (or the given file) and runs the controller against it.',
  ].join('\n'),
  options: {
    help: { type: 'boolean', short: 'h' },
    file: { type: 'string', short: 'f' },
  },
  optionHelp: {
    help: 'show this help',
    file: 'ApplicationSet manifest to apply instead of the embedded example',
  },
  run: (_values, _positionals, io) => Promise.resolve(reportNotImplemented('local', io)),
};
