import { goJson } from './functions-data.js';
import { GoObject } from './plain-values.js';

/**
 * A value Argo CD holds as Kubernetes' `apiextensionsv1.JSON` (a struct around the raw JSON bytes), as it holds the
 * plugin generator's `input.parameters`: a goTemplate that prints one shows Go's `%v` of that struct
 * (`{[34 101 117 34]}` for `"eu"`), and `toJson` gives the JSON back.
 */
export class GoRawJson extends GoObject {
  readonly goType = 'v1.JSON';
  private readonly raw: string;

  constructor(private readonly value: unknown) {
    super();
    this.raw = goJson(value);
  }

  goString(): string {
    return `{[${[...new TextEncoder().encode(this.raw)].join(' ')}]}`;
  }

  goJson(): unknown {
    return this.value;
  }

  goField(name: string): unknown {
    return name === 'Raw' ? [...new TextEncoder().encode(this.raw)] : undefined;
  }
}
