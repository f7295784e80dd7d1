import { createServer } from "mcpkit";

/**
 * The demo's second server, served over HTTP: a deterministic travel desk (no network) with a
 * forecast tool that returns structured output and a packing-list tool.
 */
export function createTravelServer() {
  const server = createServer({
    name: "travel-desk",
    version: "1.0.0",
    instructions: "Forecasts and packing lists for a trip.",
  });
  const forecasts: Record<string, { condition: string; highC: number; lowC: number }> = {
    lisbon: { condition: "sunny", highC: 24, lowC: 15 },
    oslo: { condition: "snow", highC: -2, lowC: -8 },
    tokyo: { condition: "rain", highC: 17, lowC: 11 },
  };
  server.registerTool(
    "get_forecast",
    {
      description: "Tomorrow's weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: {
        type: "object",
        properties: {
          city: { type: "string" },
          condition: { type: "string" },
          highC: { type: "number" },
          lowC: { type: "number" },
        },
        required: ["city", "condition", "highC", "lowC"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ city }: { city: string }) => {
      const forecast = forecasts[city.trim().toLowerCase()];
      if (!forecast) throw new Error(`No forecast for ${city}; try Lisbon, Oslo or Tokyo`);
      return { city, ...forecast };
    },
  );
  server.registerTool(
    "packing_list",
    {
      description: "What to pack for a weather condition",
      inputSchema: { type: "object", properties: { condition: { type: "string" } }, required: ["condition"] },
    },
    ({ condition }: { condition: string }) => {
      const extras: Record<string, string[]> = {
        sunny: ["sunscreen", "sunglasses"],
        rain: ["umbrella", "waterproof shoes"],
        snow: ["boots", "gloves", "a warm hat"],
      };
      return ["passport", "charger", ...(extras[condition] ?? ["a light jacket"])].join(", ");
    },
  );
  // Destructive on purpose: the demo asks before running it on a terminal.
  server.registerTool(
    "cancel_booking",
    {
      description: "Cancels a booking by its reference (cannot be undone)",
      inputSchema: { type: "object", properties: { reference: { type: "string" } }, required: ["reference"] },
      annotations: { destructiveHint: true, readOnlyHint: false },
    },
    ({ reference }: { reference: string }) => `Booking ${reference} cancelled`,
  );
  return server;
}
