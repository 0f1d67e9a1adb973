/** A record with `fn` applied to each value, keys and their order unchanged. */
export function mapValues<T, U>(values: Readonly<Record<string, T>>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, fn(value)]));
}
