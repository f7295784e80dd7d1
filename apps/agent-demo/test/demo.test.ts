// The main job, end to end: two real servers (a child process over stdio, HTTP on loopback), their
// tools aggregated, and the embedded model driving the loop.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { expect, it } from "vitest";
import { createDemoModel, pickModel, runDemo } from "../src/demo.js";

const here = dirname(fileURLToPath(import.meta.url));
const everythingMain = () => bundleFixture(join(here, "..", "..", "everything-server", "src", "main.ts"));

it("answers from tools on both servers, printing the conversation", async () => {
  const lines: string[] = [];
  const result = await runDemo({
    out: { write: (line) => lines.push(line) },
    env: {},
    everythingCommand: [process.execPath, await everythingMain(), "stdio"],
  });
  expect(result.text).toBe(
    'Lisbon tomorrow: sunny, 15–24 °C. Pack: passport, charger, sunscreen, sunglasses. The echo server says: "Echo: bon voyage".',
  );
  expect(result.steps).toHaveLength(3);
  const transcript = lines.join("\n");
  expect(transcript).toMatch(/connected: everything over stdio/);
  expect(transcript).toMatch(/connected: travel-desk over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
  expect(transcript).toContain('→ travel__get_forecast({"city":"Lisbon"})');
  expect(transcript).toContain("← Echo: bon voyage");
});

it("reports a tool failure to the model instead of ending the run", async () => {
  const { createScriptedModel } = await import("@mcpkit/tool-loop");
  const model = createScriptedModel([
    { toolCalls: [{ name: "travel__get_forecast", arguments: { city: "Atlantis" } }] },
    { text: "Sorry: {{result}}" },
  ]);
  const result = await runDemo({
    out: { write() {} },
    model,
    everythingCommand: [process.execPath, await everythingMain(), "stdio"],
  });
  expect(result.text).toMatch(/^Sorry: .*No forecast for Atlantis/);
});

it("uses the embedded model without keys and names the provider when a key is set", async () => {
  expect((await pickModel({})).label).toMatch(/embedded scripted model/);
  expect((await pickModel({ OPENAI_API_KEY: "sk-test" })).label).toMatch(/^OpenAI /);
  expect((await pickModel({ ANTHROPIC_API_KEY: "test" })).label).toMatch(/^Anthropic /);
  expect(createDemoModel()).toBeDefined();
});

it("streams by default, prints per step with stream: false, and asks before a destructive tool", async () => {
  const { createScriptedModel } = await import("@mcpkit/tool-loop");
  const script = () =>
    createScriptedModel([
      {
        text: "Checking, then cancelling.",
        toolCalls: [
          { name: "travel__get_forecast", arguments: { city: "Oslo" } },
          { name: "travel__cancel_booking", arguments: { reference: "BK-1" } },
        ],
      },
      { text: "Done: {{results}}" },
    ]);
  const questions: string[] = [];
  const streamed: string[] = [];
  const lines: string[] = [];
  const denied = await runDemo({
    out: { write: (line) => lines.push(line), stream: (text) => streamed.push(text) },
    model: script(),
    confirm: async (question) => {
      questions.push(question);
      return false;
    },
    everythingCommand: [process.execPath, await everythingMain(), "stdio"],
  });
  // Only the destructive tool is put to the user; the read-only forecast runs without asking.
  expect(questions).toEqual(['Allow travel/cancel_booking (destructive) with {"reference":"BK-1"}? [y/N] ']);
  expect(denied.text).toMatch(
    /^Done: .*snow.*\nThe call of tool "travel__cancel_booking" was denied by the user/s,
  );
  expect(streamed.join("")).toContain("assistant: Checking, then cancelling.\n");
  expect(streamed).toContain("Done: ");
  expect(lines).toContain('  → travel__cancel_booking({"reference":"BK-1"}) [denied]');

  const approved = await runDemo({
    out: { write() {} },
    model: script(),
    yes: true,
    confirm: async () => {
      throw new Error("--yes must not ask");
    },
    stream: false,
    everythingCommand: [process.execPath, await everythingMain(), "stdio"],
  });
  expect(approved.text).toMatch(/Booking BK-1 cancelled$/);
});
