import { AppsetError } from '../../model/errors.js';

/** A kubeconfig that cannot be used as written: the message names the file or entry and the field. */
export class KubeConfigError extends AppsetError {
  constructor(message: string) {
    super(message);
    this.name = 'KubeConfigError';
  }
}
