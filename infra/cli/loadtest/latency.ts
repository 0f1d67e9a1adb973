/**
 * Latency percentiles, one definition for the load test and the benchmarks: an HdrHistogram of
 * microseconds with 3 significant digits (every value kept within 0.1%), in constant memory
 * whatever the number of responses, and mergeable, so operations and rounds add up exactly.
 */
import * as hdr from 'hdr-histogram-js';

export class Latencies {
  // No highestTrackableValue: the histogram grows to whatever it is given (autoResize).
  readonly #histogram = hdr.build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3, useWebAssembly: false });

  /** One response's latency, in milliseconds. */
  record(ms: number): void {
    this.#histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  get count(): number {
    return this.#histogram.totalCount;
  }

  /** Milliseconds; NaN when nothing was recorded. */
  percentile(p: number): number {
    return this.count === 0 ? Number.NaN : this.#histogram.getValueAtPercentile(p) / 1000;
  }

  /** Milliseconds; NaN when nothing was recorded. */
  get max(): number {
    return this.count === 0 ? Number.NaN : this.#histogram.maxValue / 1000;
  }

  /** A new histogram holding every value of `parts`. */
  static merge(parts: readonly Latencies[]): Latencies {
    const merged = new Latencies();
    for (const part of parts) merged.#histogram.add(part.#histogram);
    return merged;
  }
}
