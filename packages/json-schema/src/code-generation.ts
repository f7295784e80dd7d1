// Whether this realm lets code be generated from strings: Cloudflare's workerd forbids `new Function`,
// and so does a browser page whose Content-Security-Policy lacks 'unsafe-eval'. ajv compiles every schema
// to a function that way, so where this is false only an eval-free engine can validate.

let probed: boolean | undefined;

/**
 * Whether `new Function` works here. Probed once per realm, on first call, with a function that does
 * nothing: the refusal is an EvalError (workerd) or a CSP violation, both thrown synchronously.
 */
export function canGenerateCode(): boolean {
  if (probed === undefined) {
    try {
      probed = new Function("return true")() === true;
    } catch {
      probed = false;
    }
  }
  return probed;
}
