import { parseYaml11 } from '../model/yaml11.js';
import { GitError, type GitLocation } from '../git/git-error.js';
import type { ParamSet } from '../model/params.js';
import { isParamSet, MAX_PARAM_DEPTH, toParamValue } from './params.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON or YAML file of the git files generator into param sets: an object gives one, a
 * list of objects gives one per element, an empty file gives one empty set (as in Argo CD).
 * Non-UTF-8 bytes, invalid syntax and other shapes are errors naming repository, revision and path.
 */
export function parseParamsFile(content: Buffer, where: GitLocation): ParamSet[] {
  let text: string;
  try {
    text = utf8.decode(content);
  } catch {
    throw new GitError('not-utf8', where, 'file is not valid UTF-8');
  }
  const depth = flowNestingDepth(text);
  if (depth > MAX_PARAM_DEPTH)
    throw new GitError('malformed', where, `file nests [ ] or { } more than ${MAX_PARAM_DEPTH} levels deep; parameters may nest at most ${MAX_PARAM_DEPTH}`);
  let parsed: unknown;
  try {
    parsed = parseYaml11(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    const first = (error as Error).message.split('\n')[0] ?? '';
    throw new GitError('malformed', where, `file is not valid JSON or YAML: ${first}`);
  }
  if (parsed === null || parsed === undefined) return [{}];
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.map((item: unknown, i) => {
    let value;
    try {
      value = toParamValue(item, Array.isArray(parsed) ? `[${i}]` : 'document');
    } catch (error) {
      throw new GitError('malformed', where, (error as Error).message);
    }
    if (!isParamSet(value)) {
      throw new GitError('malformed', where, `${Array.isArray(parsed) ? `element ${i}` : 'the document'} must be an object of parameters`);
    }
    return value;
  });
}

/**
 * The deepest nesting of `[`/`{` in `text`, counted before parsing: the YAML parser recurses per level
 * and, a few thousand levels deep, exhausts the stack or the heap (it crashed the process at 5,000).
 * Brackets inside strings count too, which only errs on the side of refusing.
 */
function flowNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}
