import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { ManagedProcess } from './managed-process.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

/** A running Gitea on a loopback port, with an admin user and an API token of that user. */
export interface GiteaServer {
  /** `http://127.0.0.1:PORT` (no trailing slash); the REST API is under `/api/v1`. */
  readonly url: string;
  readonly adminUser: string;
  readonly adminPassword: string;
  /** An access token of the admin with every scope. */
  readonly adminToken: string;
  readonly process: ManagedProcess;
  /** Waits until the API answers. */
  ready(): Promise<void>;
}

/**
 * Starts Gitea from `binary` (built without embedded assets: they sit beside it, where
 * STATIC_ROOT_PATH points) with SQLite, no SSH, no sign-up, and webhooks allowed to loopback (where the
 * tests' controller listens). The database is created with `gitea migrate` and the admin from the
 * command line, before the web server starts, so the server comes up ready to use.
 */
export async function startGitea(binary: string, runDir: RunDir): Promise<GiteaServer> {
  const port = await freePort();
  const root = join(runDir.root, 'gitea');
  const config = join(root, 'custom', 'conf', 'app.ini');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, appIni(root, binary, port), { mode: 0o600 });
  const env = { ...process.env, GITEA_WORK_DIR: root, GITEA_CUSTOM: join(root, 'custom'), HOME: root };
  const admin = await prepare(async (...args) => (await run(binary, [...args, '--config', config], { env, cwd: root, timeout: 120_000 })).stdout);
  const server = new ManagedProcess('gitea', {
    command: binary,
    args: ['web', '--config', config],
    env,
    cwd: root,
    logFile: join(runDir.logDir, 'gitea.log'),
    pidDir: runDir.pidDir,
  });
  const url = `http://127.0.0.1:${port}`;
  const ready = async (): Promise<void> => {
    await waitFor(
      async () => {
        server.assertRunning();
        return (await fetch(`${url}/api/v1/version`)).ok;
      },
      { what: `Gitea /api/v1/version on port ${port}`, timeoutMs: 60_000, intervalMs: 200 },
    );
  };
  await server.start();
  await ready();
  return { url, ...admin, process: server, ready };
}

/** Creates the database and the admin user with Gitea's command line (`cli` runs it), and an all-scopes token of that user. */
async function prepare(cli: (...args: string[]) => Promise<string>): Promise<Pick<GiteaServer, 'adminUser' | 'adminPassword' | 'adminToken'>> {
  await cli('migrate');
  const adminUser = 'gitea-admin';
  const adminPassword = randomBytes(12).toString('hex');
  await cli(
    'admin',
    'user',
    'create',
    '--username',
    adminUser,
    '--password',
    adminPassword,
    '--email',
    'admin@gitea.test',
    '--admin',
    '--must-change-password=false',
  );
  // Gitea prints its root-user warning on stdout too; the token is the line of 40 hex digits.
  const tokenOutput = await cli('admin', 'user', 'generate-access-token', '--username', adminUser, '--token-name', 'tests', '--scopes', 'all', '--raw');
  const adminToken = tokenOutput
    .split('\n')
    .find((line) => /^[0-9a-f]{40}$/.test(line.trim()))
    ?.trim();
  if (!adminToken) throw new Error(`gitea admin user generate-access-token printed no token: ${tokenOutput.slice(0, 500)}`);
  return { adminUser, adminPassword, adminToken };
}

/** Gitea's app.ini: a loopback HTTP server without SSH, sign-up, mail or OAuth, as root, assets beside the binary. */
function appIni(root: string, binary: string, port: number): string {
  return `APP_NAME = appset-controller tests
RUN_USER = ${userInfo().username}
RUN_MODE = prod
WORK_PATH = ${root}
; The test machines run as root; Gitea refuses that unless told the risk is known.
I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${port}
ROOT_URL = http://127.0.0.1:${port}/
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false
APP_DATA_PATH = ${join(root, 'data')}
; Built without bindata: locale, templates and public files are beside the binary.
STATIC_ROOT_PATH = ${dirname(binary)}

${storageIni(root)}`;
}

/** Where Gitea keeps its data, and the switches that keep a test forge small and quiet. */
function storageIni(root: string): string {
  const secret = (): string => randomBytes(24).toString('hex');
  return `[database]
DB_TYPE = sqlite3
PATH = ${join(root, 'data', 'gitea.db')}
SQLITE_JOURNAL_MODE = WAL

[repository]
ROOT = ${join(root, 'repositories')}
DEFAULT_BRANCH = main

[security]
INSTALL_LOCK = true
SECRET_KEY = ${secret()}
INTERNAL_TOKEN = ${secret()}
PASSWORD_HASH_ALGO = pbkdf2_hi

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false

[oauth2]
ENABLED = false

[actions]
ENABLED = false

[mailer]
ENABLED = false

[webhook]
; The controller under test listens on loopback; Gitea refuses such targets unless listed.
ALLOWED_HOST_LIST = loopback
DELIVER_TIMEOUT = 10

[api]
MAX_RESPONSE_ITEMS = 50
DEFAULT_PAGING_NUM = 30

[log]
MODE = console
LEVEL = warn
ROOT_PATH = ${join(root, 'log')}
`;
}
