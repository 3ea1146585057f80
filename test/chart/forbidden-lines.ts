/**
 * The log lines that report a request the API server refused for lack of permission: a Forbidden reason or an
 * HTTP 403. A bare "403" is not enough: resource versions are numbers too, and a list at resourceVersion
 * "403" once failed the chart test.
 */
export function forbiddenLines(logs: readonly string[]): string[] {
  return logs.filter((line) => /forbidden|\bHTTP 403\b|"(status|statusCode|code)":\s*403\b/i.test(line));
}
