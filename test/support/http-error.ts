import { HttpError } from '#lib/http/errors.ts';

/** Runs `run` and returns the HttpError it throws; any other outcome fails the test. */
export function thrownHttpError(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError to be thrown');
}
