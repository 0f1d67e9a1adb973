/** Which store failures become a 503 (DependencyUnavailableError) and which stay bugs (500). */
import { describe, expect, it } from 'vitest';
import { classifyStoreError, DependencyUnavailableError } from '#lib/store/store-errors.ts';

/** An error as Node's networking raises it: `code` set, no SDK metadata. */
function systemError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });
}

describe('classifyStoreError', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EMFILE', 'ENFILE'])(
    'treats a %s on the way to the store as the store being unavailable (503)',
    (code) => {
      const cause = systemError(code);
      const classified = classifyStoreError(cause, 'Listing pets');
      expect(classified).toBeInstanceOf(DependencyUnavailableError);
      expect((classified as DependencyUnavailableError).cause).toBe(cause);
      expect((classified as DependencyUnavailableError).retryAfterSeconds).toBe(1);
    },
  );

  it('leaves an error that says nothing about reachability as it is (a bug: 500)', () => {
    const bug = new TypeError('Cannot read properties of undefined');
    expect(classifyStoreError(bug, 'Listing pets')).toBe(bug);
    const denied = Object.assign(new Error('not authorized'), {
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(classifyStoreError(denied, 'Listing pets')).toBe(denied);
  });
});
