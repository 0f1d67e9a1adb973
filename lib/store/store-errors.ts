/** Throttled or unreachable: the HTTP layer answers 503 without knowing DynamoDB. */
export class DependencyUnavailableError extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, options: { cause: unknown; retryAfterSeconds?: number }) {
    super(message, { cause: options.cause });
    this.name = 'DependencyUnavailableError';
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }
}

export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super('Idempotency-Key was already used with a different request body');
    this.name = 'IdempotencyKeyReusedError';
  }
}

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);

// EMFILE/ENFILE: out of descriptors, the store was not reached; it passes as connections close.
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EMFILE',
  'ENFILE',
]);

/** DependencyUnavailableError when the error means "try again later"; any other error unchanged. */
export function classifyStoreError(error: unknown, what: string): unknown {
  if (!(error instanceof Error)) return error;
  const { $fault, $metadata, code } = error as Error & { $fault?: string; $metadata?: { httpStatusCode?: number }; code?: string };
  const status = $metadata?.httpStatusCode ?? 0;
  if (THROTTLING_ERRORS.has(error.name)) {
    return new DependencyUnavailableError(`${what}: the store is throttling requests`, { cause: error, retryAfterSeconds: 2 });
  }
  const unreachable =
    $fault === 'server' ||
    status >= 500 ||
    error.name === 'TimeoutError' ||
    error.name === 'AbortError' ||
    // Something other than DynamoDB answered (a proxy's HTML page, say).
    (error.name === 'SyntaxError' && $metadata !== undefined) ||
    (code !== undefined && NETWORK_ERROR_CODES.has(code));
  if (unreachable) {
    return new DependencyUnavailableError(`${what}: the store is unavailable`, { cause: error });
  }
  return error;
}
