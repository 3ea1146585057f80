// Building request paths from names that come from specs and answers, so a `/`, `?` or `#` in a name
// stays part of that name instead of changing the request.

/** One path segment, escaped (a `/` inside becomes %2F). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** A repository file path: each part escaped, the slashes between them kept. */
export function filePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
