import { readCrds } from '../install-crds.js';
import { CrdValidator } from './crd-validator.js';

let validators: Map<string, CrdValidator> | undefined;

/**
 * The validator of the CRD this project installs (crds/) for an `argoproj.io` kind, compiled on first use (not at
 * import); undefined for a kind it does not install.
 */
export function installedCrdValidator(kind: string): CrdValidator | undefined {
  validators ??= new Map(readCrds().map((crd) => [crd.spec.names.kind, CrdValidator.fromCrd(crd)]));
  return validators.get(kind);
}
