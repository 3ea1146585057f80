import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../../src/environment/local/git-fixtures.js';

/** The remote URL the corpus names its monorepo by; both renderers read it from the local repository instead. */
export const MONOREPO_URL = 'https://github.com/example/monorepo.git';

/**
 * A Git repository with one commit on `main` holding the files of `source` (a placeholder app when the folder
 * is missing), in a temporary folder; returns its path. Fixed identity and dates keep the commit the same.
 */
export async function buildMonorepo(source: string): Promise<string> {
  const repo = join(mkdtempSync(join(tmpdir(), 'differential-')), 'monorepo');
  if (existsSync(source)) {
    cpSync(source, repo, { recursive: true });
  } else {
    mkdirSync(join(repo, 'apps', 'placeholder'), { recursive: true });
    writeFileSync(join(repo, 'apps', 'placeholder', 'config.json'), '{"name": "placeholder"}\n');
  }
  const date = { GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' };
  await git(repo, ['init', '-q']);
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', 'differential monorepo'], date);
  return repo;
}
