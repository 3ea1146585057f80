/**
 * Argo CD's goTemplate functions this renderer refuses, each with the reason. A template naming one fails
 * when it is parsed, with the reason, instead of rendering something Argo CD would not.
 */

const CLOCK = 'its output changes on every render, so Applications would never settle';
const LOCAL_ZONE =
  "it formats in the Argo CD controller's local time zone, and given anything but a Go integer (every number parameter is a float64) it silently formats the current time instead";
const TIME_VALUE = 'it takes a Go time value, which only the clock-reading now and the refused toDate produce';
const RANDOM = 'its output is random, so Applications would change on every render';
const SECRET = 'it makes keys or secrets, which do not belong in Application manifests and would change on every render';

/** Refused function name → why. */
export const REFUSED_FUNCTIONS: Readonly<Record<string, string>> = Object.freeze({
  now: CLOCK,
  ago: `${CLOCK} (it measures the time since its argument)`,
  date: LOCAL_ZONE,
  dateInZone: 'given anything but a Go integer (every number parameter is a float64) it silently formats the current time, so Applications would never settle',
  date_in_zone:
    'given anything but a Go integer (every number parameter is a float64) it silently formats the current time, so Applications would never settle',
  htmlDate: LOCAL_ZONE,
  htmlDateInZone:
    'given anything but a Go integer (every number parameter is a float64) it silently formats the current time, so Applications would never settle',
  toDate: "it parses in the Argo CD controller's local time zone, which this renderer cannot know, and its result only feeds the other date functions",
  mustToDate: "it parses in the Argo CD controller's local time zone, which this renderer cannot know, and its result only feeds the other date functions",
  dateModify: TIME_VALUE,
  date_modify: TIME_VALUE,
  mustDateModify: TIME_VALUE,
  must_date_modify: TIME_VALUE,
  unixEpoch: TIME_VALUE,
  randAlpha: RANDOM,
  randAlphaNum: RANDOM,
  randAscii: RANDOM,
  randNumeric: RANDOM,
  randBytes: RANDOM,
  randInt: RANDOM,
  uuidv4: RANDOM,
  shuffle: RANDOM,
  bcrypt: `${RANDOM} (a random salt), and password hashes do not belong in Application manifests`,
  htpasswd: `${RANDOM} (a random bcrypt salt), and password hashes do not belong in Application manifests`,
  genPrivateKey: SECRET,
  genCA: SECRET,
  genCAWithKey: SECRET,
  genSelfSignedCert: SECRET,
  genSelfSignedCertWithKey: SECRET,
  genSignedCert: SECRET,
  genSignedCertWithKey: SECRET,
  buildCustomCert: 'it builds a certificate object from key material, which does not belong in Application manifests',
  derivePassword: 'it derives passwords from a master password, which would have to be written into the ApplicationSet',
  encryptAES: `${RANDOM} (a random IV), and it needs a secret key written into the ApplicationSet`,
  decryptAES: 'it needs a secret key written into the ApplicationSet, where anyone who can read it can decrypt',
  call: 'it calls a function value held in the data, and parameters are plain data that hold no functions, so in Argo CD it can only fail',
});

/** The reason `name` is refused, or undefined if it is not a refused function. */
export function refusalReason(name: string): string | undefined {
  return Object.hasOwn(REFUSED_FUNCTIONS, name) ? REFUSED_FUNCTIONS[name] : undefined;
}
