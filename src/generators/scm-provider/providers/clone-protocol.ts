import { GeneratorSpecError } from '../../spec-reading.js';

/** The error for a `cloneProtocol` a provider does not offer; raised per repository, as Argo CD does (an empty listing never fails). */
export function unknownCloneProtocol(provider: string, protocol: string, offered: readonly string[]): GeneratorSpecError {
  return new GeneratorSpecError('scmProvider.cloneProtocol', `unknown clone protocol ${JSON.stringify(protocol)} for ${provider} (${offered.join(' or ')})`);
}
