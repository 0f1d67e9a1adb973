// Case-insensitive; both run several times a request and allocate nothing.

/** The last value of a header in raw headers (Node's `rawHeaders`: name, value, name, value, …). */
export function headerOf(rawHeaders: readonly string[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === wanted) value = rawHeaders[i + 1];
  return value;
}

export { header as headerIn } from '#lib/http/request-headers.ts';
