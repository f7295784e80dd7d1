import { ResponseTooLargeError } from "../errors.js";

/**
 * The error of a read that broke: an SSE event the parser refused (which knows no URL) becomes a
 * `ResponseTooLargeError` naming `url`; anything else passes unchanged.
 */
export function cutStream(error: unknown, url: URL | string): unknown {
  if (error instanceof ResponseTooLargeError && error.url === undefined) {
    return new ResponseTooLargeError(error.part, error.limit, url);
  }
  return error;
}
