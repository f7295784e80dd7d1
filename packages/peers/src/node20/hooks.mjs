// Module resolve hook (registered by preload.mjs): `fs` and `node:fs` resolve to fs.mjs,
// except for the import inside fs.mjs itself.
const shim = new URL("./fs.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL !== shim) {
    return { url: shim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
