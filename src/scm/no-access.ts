import type { ScmAccess } from './access.js';
import { ScmRequestRefused } from './http/errors.js';

/** An SCM access that refuses every provider: for callers that run generators where no provider may be reached. */
export function noScmAccess(why: string): ScmAccess {
  return {
    connect: () => Promise.reject(new ScmRequestRefused(why)),
    share: (_question, _eventKey, load) => load(),
    remember: (_question, load) => load(),
  };
}
