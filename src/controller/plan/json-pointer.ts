/** RFC 6901 JSON Pointers over plain JSON values: parse, read, write and remove. */

/** The unescaped tokens of a pointer such as `/spec/source/helm/values`. Throws on a malformed pointer. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer "${pointer}" must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new Error(`JSON pointer "${pointer}" has a bad escape in "${token}"`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

type Json = unknown;

function child(container: Json, token: string): Json {
  if (Array.isArray(container)) return /^\d+$/.test(token) ? container[Number(token)] : undefined;
  if (container !== null && typeof container === 'object' && Object.hasOwn(container, token)) return (container as Record<string, Json>)[token];
  return undefined;
}

/** The value at `tokens`, or undefined if any step is missing. */
export function getAt(root: Json, tokens: readonly string[]): Json {
  return tokens.reduce<Json>((node, token) => (node === undefined ? undefined : child(node, token)), root);
}

/**
 * Sets the value at `tokens` in `root` (which it mutates; pass a copy), creating missing objects on
 * the way. Array indexes must exist already. Prototype keys are refused.
 */
export function setAt(root: Record<string, Json>, tokens: readonly string[], value: Json): void {
  let node: Json = root;
  tokens.forEach((token, index) => {
    if (token === '__proto__' || token === 'constructor' || token === 'prototype') throw new Error(`JSON pointer token "${token}" is not allowed`);
    const last = index === tokens.length - 1;
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(token) || Number(token) >= node.length) throw new Error(`JSON pointer index "${token}" is outside the list`);
      if (last) node[Number(token)] = value;
      else node = node[Number(token)];
      return;
    }
    if (node === null || typeof node !== 'object') throw new Error(`JSON pointer step "${token}" is inside a scalar`);
    const object = node as Record<string, Json>;
    if (last) object[token] = value;
    else {
      if (object[token] === null || typeof object[token] !== 'object') object[token] = {};
      node = object[token];
    }
  });
}

/** Removes the value at `tokens` from `root` (mutated) if it is there; returns whether it was. */
export function removeAt(root: Record<string, Json>, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return false;
  const parent = getAt(root, tokens.slice(0, -1));
  const key = tokens[tokens.length - 1] ?? '';
  if (Array.isArray(parent) && /^\d+$/.test(key) && Number(key) < parent.length) {
    parent.splice(Number(key), 1);
    return true;
  }
  if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, key)) {
    delete (parent as Record<string, Json>)[key];
    return true;
  }
  return false;
}
