import { describe, expect, it } from "vitest";
import { terminalSafe, terminalSafeJson } from "./terminal-text.js";

describe("terminal-safe server text", () => {
  it("[issue-25.weak] escapes title, screen clear, OSC 52 clipboard and C1 controls; keeps \\n, \\t, \\r\\n", () => {
    const hostile = "a\x1b]0;pwned\x07b\x1b[2J\x1b]52;c;ZXZpbA==\x07c\x9b31md\re\bf\t\n g\r\n";
    expect(terminalSafe(hostile)).toBe(
      "a\\x1b]0;pwned\\x07b\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07c\\x9b31md\\x0de\\x08f\t\n g\r\n",
    );
    expect(terminalSafe("plain text, ünïcode → ok")).toBe("plain text, ünïcode → ok");
  });

  it("keeps JSON valid and equal while escaping DEL and C1", () => {
    const value = { text: "x\x9b\x7fy\x1b" };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).toBe('{"text":"x\\u009b\\u007fy\\u001b"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
