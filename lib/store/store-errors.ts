/**
 * Store failures that are not bugs: the dependency is throttling us or cannot be reached. The
 * adapters translate AWS SDK errors into this one type so the HTTP layer can answer 503 without
 * knowing anything about DynamoDB.
 */
export class DependencyUnavailableError extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, options: { cause: unknown; retryAfterSeconds?: number }) {
    super(message, { cause: options.cause });
    this.name = 'DependencyUnavailableError';
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }
}

/** An Idempotency-Key reused for a create with a different body. */
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

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // Out of file descriptors (this process or the host) for the connection to the store: the
  // store was not reached, and the condition passes as connections close.
  'EMFILE',
  'ENFILE',
]);

/**
 * Wraps an SDK error as DependencyUnavailableError when it means "try again later" (throttling,
 * a 5xx from the service, a timeout, a network failure or an unreadable answer); returns any
 * other error unchanged.
 */
export function classifyStoreError(error: unknown, what: string): unknown {
  if (!(error instanceof Error)) return error;
  const { $fault, $metadata, code } = error as Error & {
    $fault?: string;
    $metadata?: { httpStatusCode?: number };
    code?: string;
  };
  const status = $metadata?.httpStatusCode ?? 0;
  if (THROTTLING_ERRORS.has(error.name)) {
    return new DependencyUnavailableError(`${what}: the store is throttling requests`, {
      cause: error,
      retryAfterSeconds: 2,
    });
  }
  const unreachable =
    $fault === 'server' ||
    status >= 500 ||
    error.name === 'TimeoutError' ||
    error.name === 'AbortError' ||
    // The SDK could not read the answer (it attaches $metadata): something that is not DynamoDB
    // answered, such as a proxy's HTML page.
    (error.name === 'SyntaxError' && $metadata !== undefined) ||
    (code !== undefined && NETWORK_ERROR_CODES.has(code));
  if (unreachable) {
    return new DependencyUnavailableError(`${what}: the store is unavailable`, { cause: error });
  }
  return error;
}
