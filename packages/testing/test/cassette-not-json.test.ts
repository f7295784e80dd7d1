import { expect, it } from "vitest";
import { CassetteError, parseCassette } from "../src/index.js";

// Found by the cassette fuzz target: on Node 20 JSON.parse quotes the input in its message, so text that
// is not JSON gave a CassetteError spanning lines and carrying raw control characters.
it("a cassette that is not JSON is refused with one line, its control characters escaped", () => {
  for (const text of ["\u0000\n", '{"a":\n\n}', "x\ny", "\u001b[31m\n"]) {
    const error = (() => {
      try {
        parseCassette(text);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(CassetteError);
    expect(error?.message).toMatch(/^cassette: /);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
    expect(error?.message).not.toMatch(/[\u0000-\u001f\u007f]/);
  }
});
