import { expect } from "vitest";
import { AuthError } from "../../src/index.js";

/** Awaits a promise that must reject with an {@link AuthError}, and hands the error back. */
export async function authRejection(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}
