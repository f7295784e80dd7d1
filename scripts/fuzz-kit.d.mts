import type { Arbitrary } from "fast-check";
/** Generated inputs per property (FUZZ_RUNS, default 300). */
export declare const FUZZ_RUNS: number;
/** The seed of every run (FUZZ_SEED, default fixed). */
export declare const FUZZ_SEED: number;
/** The seed inputs of a target: the text of each file in `dir`, in name order. */
export declare function readCorpus(dir: string): string[];
/** Checks `predicate` on the seeds, then on FUZZ_RUNS generated inputs; resolves with the executions. */
export declare function fuzz<T>(
  name: string,
  arbitrary: Arbitrary<T>,
  predicate: (input: T) => void | Promise<void>,
  seeds?: readonly T[],
): Promise<number>;
