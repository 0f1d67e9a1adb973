/** The one percentile definition of the load test and the benchmarks (infra/cli/loadtest/latency.ts). */
import { describe, expect, it } from 'vitest';
import { Latencies } from '../../infra/cli/loadtest/latency.ts';

/** HdrHistogram reports a value as the top of its bucket: at most 0.1% above it. */
const expectWithin = (actual: number, expected: number) => {
  expect(actual).toBeGreaterThanOrEqual(expected);
  expect(actual).toBeLessThanOrEqual(expected * 1.001);
};

const of = (values: readonly number[]): Latencies => {
  const latencies = new Latencies();
  for (const value of values) latencies.record(value);
  return latencies;
};

describe('Latencies', () => {
  it('gives the nearest-rank percentile, never an interpolation', () => {
    const latencies = of([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(latencies.count).toBe(10);
    expectWithin(latencies.percentile(50), 5);
    expectWithin(latencies.percentile(90), 9);
    expectWithin(latencies.percentile(99), 10);
    expectWithin(latencies.max, 10);
    // Two values: the median is the lower one, where an interpolation would say 15.
    expectWithin(of([10, 20]).percentile(50), 10);
  });

  it('keeps every value within 0.1%, sub-millisecond ones included', () => {
    for (const ms of [0.05, 0.731, 12.345, 987.6, 29_000]) expectWithin(of([ms]).percentile(50), ms);
  });

  it('merges exactly: the percentiles of the parts together are those of all values', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => ((i * 7919) % 10_000) / 10 + 0.1);
    const parts = [of(values.slice(0, 3_000)), of(values.slice(3_000, 7_500)), of(values.slice(7_500))];
    const merged = Latencies.merge(parts);
    const whole = of(values);
    expect(merged.count).toBe(10_000);
    for (const p of [50, 95, 99, 99.9]) expect(merged.percentile(p)).toBe(whole.percentile(p));
  });

  it('answers NaN when nothing was recorded', () => {
    expect(new Latencies().percentile(99)).toBeNaN();
    expect(new Latencies().max).toBeNaN();
  });
});
