import type { Command } from '../command.js';
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
  options: {
    help: { type: 'boolean', short: 'h' },
    kubeconfig: { type: 'string' },
    namespace: { type: 'string' },
    'applicationset-namespaces': { type: 'string', multiple: true },
    'redis-url': { type: 'string' },
    policy: { type: 'string' },
    'enable-policy-override': { type: 'boolean' },
    concurrency: { type: 'string' },
    'metrics-addr': { type: 'string' },
    'log-level': { type: 'string' },
  },
  optionHelp: {
    help: 'show this help',
    kubeconfig: 'kubeconfig file (default: in-cluster config, then $KUBECONFIG)',
    namespace: "the controller's own namespace, trusted as the platform team's",
    'applicationset-namespaces': 'glob of further namespaces to watch for tenant ApplicationSets (repeatable)',
    'redis-url': 'Redis URL of the shared work queue (default: an in-memory queue, one replica)',
    policy: 'sync policy for all ApplicationSets: sync, create-only, create-update or create-delete',
    'enable-policy-override': "let an ApplicationSet's syncPolicy override --policy",
    concurrency: 'reconciles run at once by this replica',
    'metrics-addr': 'address of the metrics, health and webhook server',
    'log-level': 'trace, debug, info, warn or error',
  },
  run: (_values, _positionals, io) => Promise.resolve(reportNotImplemented('controller', io)),
};
