/** One template function: its implementation and whether it may receive a missing parameter without error. */
export interface TemplateFunction {
  call: (...args: unknown[]) => unknown;
  /** Guards (`default`, `empty`, `and`...) test for missing values, so passing one is not an error. */
  guard?: boolean;
}

/** A table of template functions by name. */
export type FunctionTable = Record<string, TemplateFunction>;

/** An ordinary function: a missing parameter passed to it is an error (or nil with the keep opt-out). */
export const fn = (call: (...args: unknown[]) => unknown): TemplateFunction => ({ call });

/** A guard: it receives missing parameters as they are, to test them. */
export const guard = (call: (...args: unknown[]) => unknown): TemplateFunction => ({ call, guard: true });
