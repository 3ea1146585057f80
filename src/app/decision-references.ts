/** Which ApplicationSets name which clusterDecisionResource ConfigMaps, both ways, kept up to date from watch events. */
export class DecisionReferences {
  private readonly byAppSet = new Map<string, readonly string[]>();
  private readonly byConfigMap = new Map<string, Set<string>>();

  /** Records the ConfigMaps ApplicationSet `key` names (none: forgets it); true when that changed the ConfigMaps in use. */
  set(key: string, configMaps: readonly string[]): boolean {
    const before = new Set(this.byConfigMap.keys());
    for (const name of this.byAppSet.get(key) ?? []) {
      const users = this.byConfigMap.get(name);
      users?.delete(key);
      if (users?.size === 0) this.byConfigMap.delete(name);
    }
    if (configMaps.length === 0) this.byAppSet.delete(key);
    else this.byAppSet.set(key, configMaps);
    for (const name of configMaps) this.byConfigMap.set(name, (this.byConfigMap.get(name) ?? new Set<string>()).add(key));
    return before.size !== this.byConfigMap.size || [...before].some((name) => !this.byConfigMap.has(name));
  }

  /** The ConfigMaps some ApplicationSet names. */
  configMaps(): string[] {
    return [...this.byConfigMap.keys()];
  }

  /** The ApplicationSets (keys) that name ConfigMap `name`. */
  users(name: string): string[] {
    return [...(this.byConfigMap.get(name) ?? [])];
  }
}
