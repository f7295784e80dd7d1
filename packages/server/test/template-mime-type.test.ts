// A resource template's read gets the same mimeType default as a static resource (text/plain).
import { describe, expect, it } from "vitest";
import { createServer } from "../src/index.js";
import { legacyClient, modernCall } from "./helpers.js";

describe("resource template reads", () => {
  it("default to text/plain like a static resource, in both eras; a configured mimeType wins", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.registerResource("notes://motto", { name: "motto" }, () => "Be kind.");
    server.registerResourceTemplate("notes://{id}/text", { name: "note" }, (_uri, { id }) => `note ${id}`);
    server.registerResourceTemplate(
      "notes://{id}/json",
      { name: "json", mimeType: "application/json" },
      () => "{}",
    );
    const read = async (uri: string) =>
      (await modernCall(server, "resources/read", { uri })).response.result.contents;
    expect(await read("notes://motto")).toEqual([
      { uri: "notes://motto", mimeType: "text/plain", text: "Be kind." },
    ]);
    expect(await read("notes://7/text")).toEqual([
      { uri: "notes://7/text", mimeType: "text/plain", text: "note 7" },
    ]);
    expect(await read("notes://7/json")).toEqual([
      { uri: "notes://7/json", mimeType: "application/json", text: "{}" },
    ]);
    const legacy = await legacyClient(server);
    expect((await legacy.request("resources/read", { uri: "notes://8/text" })).contents).toEqual([
      { uri: "notes://8/text", mimeType: "text/plain", text: "note 8" },
    ]);
    await legacy.close();
    await server.close();
  });
});
