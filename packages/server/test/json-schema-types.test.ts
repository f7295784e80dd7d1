// A tool registered with a literal JSON Schema (`as const`) gets typed arguments, as a zod tool does;
// a schema built at run time keeps `any` (the handler states its own type). Checked by the typecheck.
import { describe, expect, expectTypeOf, it } from "vitest";
import { createServer, type FromJsonSchema } from "../src/index.js";
import { modernCall } from "./helpers.js";

const forecast = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer" },
    unit: { enum: ["C", "F"] },
    tags: { type: "array", items: { type: "string" } },
    at: {
      type: "object",
      properties: { lat: { type: "number" }, lon: { type: "number" } },
      required: ["lat", "lon"],
    },
    note: { type: ["string", "null"] },
    mode: { anyOf: [{ const: "fast" }, { type: "boolean" }] },
  },
  required: ["city", "days"],
} as const;

describe("FromJsonSchema", () => {
  it("reads properties, required, type, enum, const, items, anyOf and nested objects", () => {
    expectTypeOf<FromJsonSchema<typeof forecast>>().toEqualTypeOf<{
      city: string;
      days: number;
      unit?: "C" | "F";
      tags?: string[];
      at?: { lat: number; lon: number };
      note?: string | null;
      mode?: "fast" | boolean;
    }>();
    expectTypeOf<FromJsonSchema<{ type: "object"; properties: {} }>>().toEqualTypeOf<{}>();
    expectTypeOf<FromJsonSchema<true>>().toEqualTypeOf<unknown>();
  });

  it("types the handler of a tool registered with a literal schema, and runs it", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.registerTool("forecast", { inputSchema: forecast }, (args) => {
      expectTypeOf(args).toEqualTypeOf<FromJsonSchema<typeof forecast>>();
      // @ts-expect-error: days is a number
      const wrong: string = args.days;
      return `${args.city} for ${args.days} days${wrong === undefined ? "" : ""}`;
    });
    const { response } = await modernCall(server, "tools/call", {
      name: "forecast",
      arguments: { city: "Oslo", days: 3 },
    });
    expect(response.result.content).toEqual([{ type: "text", text: "Oslo for 3 days" }]);
    await server.close();
  });

  it("leaves a schema built at run time as any, so a handler's own type still fits", () => {
    const server = createServer({ name: "s", version: "1" });
    const built = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    server.registerTool("greet", { inputSchema: built }, (args: { name: string }) => `Hello, ${args.name}`);
    server.registerTool(
      "inline",
      { inputSchema: { type: "object", properties: { n: { type: "number" } } } },
      (args) => {
        expectTypeOf(args).toBeAny();
        return "ok";
      },
    );
  });
});

describe("ArgsOf with a partly widened schema", () => {
  it("stays any when a property's type or required lost its literal", () => {
    const server = createServer({ name: "s", version: "1" });
    const partly = {
      type: "object" as const,
      properties: { secret: { type: "string" } },
      required: ["secret"],
    };
    server.registerTool("work", { inputSchema: partly }, (args: { secret: string }) => args.secret);
    server.registerTool("any", { inputSchema: partly }, (args) => {
      expectTypeOf(args).toBeAny();
      return "ok";
    });
  });
});
