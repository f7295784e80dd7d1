// The everything server's MCP App: the counter as an interactive view. The view (src/view/counter-view.ts,
// written with the official ext-apps App class) is bundled into one HTML file at build; without it the
// server serves a view written by hand (hand-view.ts) that speaks the same messages.
import { type HtmlSource, registerAppResource, registerAppTool, rendersApps } from "@mcpkit/apps";
import { text } from "@mcpkit/protocol";
import type { Server } from "@mcpkit/server";
import { z } from "zod";
import { HAND_VIEW_HTML } from "./view/hand-view.js";

/** The URI of the counter view. */
export const COUNTER_VIEW_URI = "ui://everything/counter";

/** What the app needs from the server it is part of. */
export interface CounterAppOptions {
  /** The view's HTML; default the hand-written view. */
  readonly html?: HtmlSource | undefined;
  /** Reads the counter. */
  readonly read: () => number;
  /** Adds one to the counter and returns it. */
  readonly bump: () => number;
}

/**
 * Registers the counter app: the view, `counter_app` (model and app: shows the counter), `counter_bump`
 * (app only: the view's button) and `counter_peek` (model only: a view may not call it).
 */
export function registerCounterApp(server: Server, options: CounterAppOptions): void {
  registerAppResource(server, COUNTER_VIEW_URI, {
    name: "counter_view",
    title: "Counter",
    description: "An interactive view of the everything server's counter",
    html: options.html ?? HAND_VIEW_HTML,
    // Its "Copy" button writes to the clipboard; no other origin is needed (the CSP stays the default).
    ui: { prefersBorder: true, permissions: { clipboardWrite: {} } },
  });
  registerAppTool(
    server,
    "counter_app",
    {
      title: "Counter app",
      description: "Shows the counter in an interactive view (text for hosts without MCP Apps).",
      inputSchema: z.object({ label: z.string().optional().describe("A caption for the view") }),
      annotations: { readOnlyHint: true },
      ui: { resourceUri: COUNTER_VIEW_URI },
    },
    ({ label }, ctx) => ({
      // The text is all a host without MCP Apps shows; one that renders the view is told so.
      content: [
        text(
          `The counter is ${options.read()}${label ? ` (${label})` : ""}.${rendersApps(ctx) ? " The view shows it." : ""}`,
        ),
      ],
      structuredContent: { counter: options.read() },
    }),
  );
  registerAppTool(
    server,
    "counter_bump",
    {
      title: "Bump the counter (from the view)",
      description: "Adds one to the counter; only the counter view calls it.",
      ui: { resourceUri: COUNTER_VIEW_URI, visibility: ["app"] },
    },
    () => {
      const counter = options.bump();
      return { content: [text(`The counter is now ${counter}.`)], structuredContent: { counter } };
    },
  );
  registerAppTool(
    server,
    "counter_peek",
    {
      title: "Peek at the counter (model only)",
      description: "Reads the counter; hidden from views.",
      annotations: { readOnlyHint: true },
      ui: { resourceUri: COUNTER_VIEW_URI, visibility: ["model"] },
    },
    () => `The counter is ${options.read()}.`,
  );
}
