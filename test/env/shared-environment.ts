import { readFileSync } from 'node:fs';
import { testKubeConfig, type TestKubeConfig } from './test-kube-config.js';
import type { TestEnvironmentInfo } from '../../src/environment/local/environment.js';
import { GitFixtures } from '../../src/environment/local/git-fixtures.js';

/** Environment variable naming the info file of the environment the test runner started. */
export const ENV_INFO_VARIABLE = 'APPSET_TEST_ENV';

let cached: TestEnvironmentInfo | undefined;

/**
 * The environment the test runner started for this run. Throws when there is none, so an
 * integration test run outside `npm test` fails loudly instead of skipping.
 */
export function sharedEnvironment(): TestEnvironmentInfo {
  if (cached) return cached;
  const file = process.env[ENV_INFO_VARIABLE];
  if (!file) throw new Error(`${ENV_INFO_VARIABLE} is not set: run integration tests through "npm test", which starts the test environment`);
  cached = JSON.parse(readFileSync(file, 'utf8')) as TestEnvironmentInfo;
  return cached;
}

/** An admin KubeConfig for the shared environment. */
export function adminKubeConfig(): TestKubeConfig {
  return testKubeConfig(sharedEnvironment().kubeconfigPath);
}

/**
 * A KubeConfig that acts as `user` (for example `system:serviceaccount:ns:name`) through the admin's
 * impersonation rights, so RBAC decides what it may do exactly as it would for that user.
 */
export function impersonatingKubeConfig(user: string): TestKubeConfig {
  const kc = adminKubeConfig();
  const admin = kc.getCurrentUser();
  if (!admin) throw new Error('the admin kubeconfig has no current user');
  kc.users = kc.users.map((u) => (u.name === admin.name ? { ...u, impersonateUser: user } : u));
  const connection = kc.connection;
  return Object.assign(kc, {
    connection: async () => {
      const own = await connection();
      return { ...own, headers: { ...own.headers, 'Impersonate-User': user } };
    },
  });
}

/** Git fixtures whose repositories the shared environment's Git HTTP server serves. */
export function sharedGitFixtures(): GitFixtures {
  const info = sharedEnvironment();
  return new GitFixtures(info.gitRoot, info.gitHttpBaseUrl);
}
