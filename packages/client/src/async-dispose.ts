// `Symbol.asyncDispose` for the types of a client and a subscription (`await using`): the runtimes have it
// (Node 20+, Bun, Deno, workerd, current browsers), but its type lives in `lib: ["esnext.disposable"]` or
// @types/node, and a page compiled with `lib: ["dom", "es2022"]` has neither. Declared here the way
// lib.esnext.disposable declares it, so the declarations merge wherever both are present.
declare global {
  interface SymbolConstructor {
    /** The method `await using` calls when its scope ends. */
    readonly asyncDispose: unique symbol;
  }
}

/** The key of the method `await using` calls: `typeof Symbol.asyncDispose`. */
export type AsyncDisposeKey = typeof Symbol.asyncDispose;
