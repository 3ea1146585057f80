import { entryPath, type NamedEntry } from './document.js';
import { KubeConfigError } from './errors.js';
import { base64Field, booleanField, describeEntry, rejectUnsupportedFields, stringField } from './fields.js';
import { readNamedFile } from './read-file.js';

const KIND = 'cluster';

/** Cluster fields of kubeconfig this client does not implement (`extensions` and `disable-compression` change nothing here). */
const UNSUPPORTED = new Set(['proxy-url']);

/** A kubeconfig cluster, resolved: its server URL and a reader of its TLS settings. */
export interface ResolvedCluster {
  readonly server: string;
  readonly insecure: boolean;
  readonly servername: string | undefined;
  /** The CA bundle (PEM) to trust, read again each call when it comes from a file; undefined for the system's. */
  readonly ca: () => string | undefined;
  /** The CA bundle as written in the kubeconfig (base64 of the file's content when it names a file): for exec plugins' cluster info. */
  readonly caData: () => string | undefined;
}

/** Checks and resolves the cluster entry `entry`. */
export function resolveCluster(entry: NamedEntry): ResolvedCluster {
  rejectUnsupportedFields(KIND, entry, UNSUPPORTED);
  const name = describeEntry(KIND, entry);
  const server = stringField(KIND, entry, 'server');
  if (!server) throw new KubeConfigError(`${name}: field "server" is missing`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new KubeConfigError(`${name}: field "server" is not a URL: ${server}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KubeConfigError(`${name}: field "server" must be an http or https URL: ${server}`);
  const insecure = booleanField(KIND, entry, 'insecure-skip-tls-verify');
  const data = base64Field(KIND, entry, 'certificate-authority-data');
  const file = stringField(KIND, entry, 'certificate-authority');
  if (insecure && (data || file)) throw new KubeConfigError(`${name}: "insecure-skip-tls-verify" cannot be combined with a certificate authority`);
  const caPath = file === undefined ? undefined : entryPath(entry, file);
  // As kubectl: the inline data wins over the file when both are given.
  const ca = data !== undefined ? () => data : caPath !== undefined ? () => readNamedFile(caPath, `${name}: certificate-authority`) : () => undefined;
  return {
    server: server.replace(/\/+$/, ''),
    insecure,
    servername: stringField(KIND, entry, 'tls-server-name'),
    ca,
    caData: () => {
      const pem = ca();
      return pem === undefined ? undefined : Buffer.from(pem).toString('base64');
    },
  };
}
