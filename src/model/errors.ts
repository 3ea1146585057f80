/**
 * Base of every error class of this project: each carries its reason, a stable word that metrics, logs
 * and status conditions use (the class name, unless the class knows a more precise one).
 */
export class AppsetError extends Error {
  /** Why it failed: a metric label or condition reason. */
  get reason(): string {
    return this.name;
  }
}
