// Case-insensitive; runs several times a request and allocates nothing.

/** The last value of a header in raw headers (Node's `rawHeaders`: name, value, name, value, …). */
export function headerOf(rawHeaders: readonly string[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === wanted) value = rawHeaders[i + 1];
  return value;
}
