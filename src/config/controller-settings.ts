import type { SettingSpec } from './option-table.js';
import { integerIn, numberIn, oneOf, parseBoolean, parseDurationMs, parseHostPortList, parseList, parseListenAddress, parseRedisUrl } from './parsers.js';

import { SYNC_POLICIES, type SyncPolicy } from '../model/sync-policy.js';


/** Log levels the controller accepts. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

const optionalText = (raw: string): string | undefined => raw.trim() || undefined;
const setting = <T>(spec: SettingSpec<T>): SettingSpec<T> => spec;

/** Every setting of `appset controller`: flag, environment variable, help and default, in one place. */
export const controllerSettings = {
  kubeconfig: setting<string | undefined>({
    flag: 'kubeconfig', env: 'KUBECONFIG', kind: 'string', parse: optionalText, fallback: undefined,
    help: 'kubeconfig file (default: in-cluster credentials, then ~/.kube/config)',
  }),
  namespace: setting<string | undefined>({
    flag: 'namespace', env: 'APPSET_NAMESPACE', kind: 'string', parse: optionalText, fallback: undefined,
    help: "the controller's own namespace, trusted as the platform team's (default: the pod's namespace)",
  }),
  applicationSetNamespaces: setting<readonly string[]>({
    flag: 'applicationset-namespaces', env: 'APPSET_APPLICATIONSET_NAMESPACES', kind: 'list', parse: parseList, fallback: [],
    help: 'globs of further namespaces whose ApplicationSets are watched, as tenants (repeatable or comma-separated)',
  }),
  concurrentReconciliations: setting<number>({
    flag: 'concurrent-reconciliations', env: 'APPSET_CONCURRENT_RECONCILIATIONS', kind: 'string', parse: integerIn(1, 1000), fallback: 10,
    help: 'reconciles this replica runs at once (Application writes in flight: 20 per reconcile, shared between them)',
  }),
  policy: setting<SyncPolicy | undefined>({
    flag: 'policy', env: 'APPSET_POLICY', kind: 'string', parse: oneOf(SYNC_POLICIES), fallback: undefined,
    help: `what the controller may do to Applications: ${SYNC_POLICIES.join(', ')} (default sync)`,
  }),
  enablePolicyOverride: setting<boolean | undefined>({
    flag: 'enable-policy-override', env: 'APPSET_ENABLE_POLICY_OVERRIDE', kind: 'boolean', parse: parseBoolean, fallback: undefined,
    help: "let an ApplicationSet's syncPolicy.applicationsSync override --policy (default: on unless --policy is set, as in Argo CD)",
  }),
  dryRun: setting<boolean>({
    flag: 'dry-run', env: 'APPSET_DRY_RUN', kind: 'boolean', parse: parseBoolean, fallback: false,
    help: 'compute and log every change, write nothing',
  }),
  redisUrl: setting<string | undefined>({
    flag: 'redis-url', env: 'APPSET_REDIS_URL', kind: 'string', parse: parseRedisUrl, fallback: undefined,
    help: 'Redis URL of the shared work queue, redis:// or rediss:// (none: in-memory queue, one replica)',
  }),
  redisPassword: setting<string | undefined>({
    flag: 'redis-password', env: 'APPSET_REDIS_PASSWORD', kind: 'string', parse: (raw) => raw || undefined, fallback: undefined,
    help: "password of the queue's Redis, overriding one in --redis-url (prefer the environment variable: flags show in ps)",
  }),
  redisSentinels: setting<ReadonlyArray<{ readonly host: string; readonly port: number }>>({
    flag: 'redis-sentinels', env: 'APPSET_REDIS_SENTINELS', kind: 'list', parse: parseHostPortList, fallback: [],
    help: 'host:port of Redis Sentinels to find the queue\'s Redis through, instead of --redis-url (repeatable or comma-separated)',
  }),
  redisSentinelMaster: setting<string | undefined>({
    flag: 'redis-sentinel-master', env: 'APPSET_REDIS_SENTINEL_MASTER', kind: 'string', parse: optionalText, fallback: undefined,
    help: 'name of the master the Sentinels watch (required with --redis-sentinels)',
  }),
  redisSentinelPassword: setting<string | undefined>({
    flag: 'redis-sentinel-password', env: 'APPSET_REDIS_SENTINEL_PASSWORD', kind: 'string', parse: (raw) => raw || undefined, fallback: undefined,
    help: 'password of the Sentinels themselves, when they require one',
  }),
  redisTls: setting<boolean>({
    flag: 'redis-tls', env: 'APPSET_REDIS_TLS', kind: 'boolean', parse: parseBoolean, fallback: false,
    help: 'use TLS to the Sentinels and the master they name (with --redis-url, use a rediss:// URL instead)',
  }),
  redisTlsCaFile: setting<string | undefined>({
    flag: 'redis-tls-ca-file', env: 'APPSET_REDIS_TLS_CA_FILE', kind: 'string', parse: optionalText, fallback: undefined,
    help: "PEM file of the certificate authorities trusted for Redis TLS (default: Node.js's bundled roots)",
  }),
  listenAddress: setting<{ readonly host: string; readonly port: number }>({
    flag: 'listen-address', env: 'APPSET_LISTEN_ADDRESS', kind: 'string', parse: parseListenAddress, fallback: { host: '0.0.0.0', port: 8080 },
    help: 'address of the metrics, health and webhook server',
  }),
  resyncPeriodMs: setting<number>({
    flag: 'resync-period', env: 'APPSET_RESYNC_PERIOD', kind: 'string', parse: parseDurationMs, fallback: 10 * 60_000,
    help: 'how often every ApplicationSet is reconciled as a safety net (e.g. 10m)',
  }),
  maxDeleteShare: setting<number>({
    flag: 'max-delete-share', env: 'APPSET_MAX_DELETE_SHARE', kind: 'string', parse: numberIn(0, 1), fallback: 0.5,
    help: "largest share of an ApplicationSet's Applications one reconcile may delete (0-1)",
  }),
  gitCacheDir: setting<string | undefined>({
    flag: 'git-cache-dir', env: 'APPSET_GIT_CACHE_DIR', kind: 'string', parse: optionalText, fallback: undefined,
    help: 'folder for the shared Git repository cache (default: a folder in the system temp dir)',
  }),
  gitRefsMaxAgeMs: setting<number>({
    flag: 'git-refs-max-age', env: 'APPSET_GIT_REFS_MAX_AGE', kind: 'string', parse: parseDurationMs, fallback: 30_000,
    help: "longest a repository's refs (one git ls-remote) are reused to resolve revisions; a webhook push or the refresh annotation ends it at once, and a git generator polling every N seconds gets refs at most N seconds old (0: ls-remote on every resolve)",
  }),
  allowLocalRepos: setting<boolean>({
    flag: 'allow-local-repos', env: 'APPSET_ALLOW_LOCAL_REPOS', kind: 'boolean', parse: parseBoolean, fallback: false,
    help: "let tenants' generators read file:// and loopback repositories (local development only)",
  }),
  maxApplicationsPerApplicationSet: setting<number>({
    flag: 'max-applications-per-applicationset', env: 'APPSET_MAX_APPLICATIONS_PER_APPLICATIONSET', kind: 'string', parse: integerIn(0, 10_000_000), fallback: 0,
    help: 'quota: most Applications a tenant ApplicationSet may own; a reconcile over it is refused whole (0: no limit)',
  }),
  maxApplicationsPerNamespace: setting<number>({
    flag: 'max-applications-per-namespace', env: 'APPSET_MAX_APPLICATIONS_PER_NAMESPACE', kind: 'string', parse: integerIn(0, 10_000_000), fallback: 0,
    help: 'quota: most Applications a tenant namespace may hold; a reconcile that would exceed it is refused whole (0: no limit)',
  }),
  webhookSecret: setting<string | undefined>({
    flag: 'webhook-secret', env: 'APPSET_WEBHOOK_SECRET', kind: 'string', parse: optionalText, fallback: undefined,
    help: "Secret in the controller's namespace holding webhook.github.secret, webhook.gitlab.secret, ... (none: /api/webhook refuses every request)",
  }),
  logLevel: setting<(typeof LOG_LEVELS)[number]>({
    flag: 'log-level', env: 'APPSET_LOG_LEVEL', kind: 'string', parse: oneOf(LOG_LEVELS), fallback: 'info',
    help: `log level: ${LOG_LEVELS.join(', ')}`,
  }),
  logFormat: setting<'json' | 'pretty'>({
    flag: 'log-format', env: 'APPSET_LOG_FORMAT', kind: 'string', parse: oneOf(['json', 'pretty'] as const), fallback: 'json',
    help: 'log format: json or pretty',
  }),
} as const;
