/** A mistake in a command's arguments: the command prints the message and its usage, and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
