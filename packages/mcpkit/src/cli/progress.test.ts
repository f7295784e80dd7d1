import { expect, it } from "vitest";
import { renderProgress } from "./progress.js";

it("draws a bar when the total is known and a counter otherwise", () => {
  expect(renderProgress({ progress: 5, total: 10, message: "half" }, 10)).toBe("[#####-----]  50% half");
  expect(renderProgress({ progress: 12, total: 10 }, 4)).toBe("[####] 100%");
  expect(renderProgress({ progress: 3 })).toBe("[3]");
});
