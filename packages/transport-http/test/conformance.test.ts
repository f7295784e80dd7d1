import { transportConformance } from "@mcpkit/test-kit";
import { createStreamableHttpClientTransport, createStreamableHttpHandler } from "../src/index.js";
import { createNodeFetch, listen, nodeBodyReader } from "../src/node.js";
import { withModernHeaders } from "./modern-headers.js";
import { createFanIn, inProcessFetch, LEGACY, MODERN, rawInitialize, withModernMeta } from "./support.js";

const URL_IN_PROCESS = "http://127.0.0.1/mcp";

type Where = "in-process" | "port" | "port, node fetch";

async function legacyPair(where: Where, preferJson: boolean) {
  const fan = createFanIn();
  if (where === "in-process") {
    const handler = createStreamableHttpHandler({ connect: fan.connect, preferJson });
    const doFetch = inProcessFetch(handler);
    const { sessionId } = await rawInitialize(doFetch, URL_IN_PROCESS);
    const client = createStreamableHttpClientTransport({
      url: URL_IN_PROCESS,
      fetch: doFetch,
      era: "legacy",
      protocolVersion: LEGACY,
      sessionId,
    });
    return { client, server: fan.transport, dispose: () => handler.close() };
  }
  const server = await listen({ connect: fan.connect, preferJson });
  const { sessionId } = await rawInitialize(fetch, server.url);
  const client = createStreamableHttpClientTransport({
    url: server.url,
    era: "legacy",
    protocolVersion: LEGACY,
    sessionId,
    ...(where === "port, node fetch" ? { fetch: createNodeFetch(), bodyReader: nodeBodyReader } : {}),
  });
  return { client, server: fan.transport, dispose: () => server.close() };
}

async function modernPair(where: Where, preferJson: boolean) {
  const fan = createFanIn({ stripModernMeta: true });
  if (where === "in-process") {
    const handler = createStreamableHttpHandler({ connect: fan.connect, preferJson });
    const client = createStreamableHttpClientTransport({
      url: URL_IN_PROCESS,
      fetch: inProcessFetch(handler),
      era: "modern",
      protocolVersion: MODERN,
    });
    return {
      client: withModernMeta(withModernHeaders(client)),
      server: fan.transport,
      dispose: () => handler.close(),
    };
  }
  const server = await listen({ connect: fan.connect, preferJson });
  const client = createStreamableHttpClientTransport({
    url: server.url,
    era: "modern",
    protocolVersion: MODERN,
    ...(where === "port, node fetch" ? { fetch: createNodeFetch(), bodyReader: nodeBodyReader } : {}),
  });
  return {
    client: withModernMeta(withModernHeaders(client)),
    server: fan.transport,
    dispose: () => server.close(),
  };
}

transportConformance("HTTP legacy session, in-process, SSE replies", () => legacyPair("in-process", false));
transportConformance("HTTP legacy session, real port, JSON replies", () => legacyPair("port", true));
transportConformance("HTTP legacy session, real port, SSE replies", () => legacyPair("port", false));
transportConformance("HTTP modern, in-process, SSE replies", () => modernPair("in-process", false), {
  serverRequests: false,
  unsolicitedNotifications: false,
});
transportConformance("HTTP modern, in-process, JSON replies", () => modernPair("in-process", true), {
  serverRequests: false,
  unsolicitedNotifications: false,
});
transportConformance("HTTP modern, real port, SSE replies", () => modernPair("port", false), {
  serverRequests: false,
  unsolicitedNotifications: false,
});

// The same suite through createNodeFetch (node:http keep-alive agents instead of the global fetch).
transportConformance("HTTP legacy session, real port, SSE replies, node fetch", () =>
  legacyPair("port, node fetch", false),
);
transportConformance("HTTP legacy session, real port, JSON replies, node fetch", () =>
  legacyPair("port, node fetch", true),
);
transportConformance(
  "HTTP modern, real port, SSE replies, node fetch",
  () => modernPair("port, node fetch", false),
  {
    serverRequests: false,
    unsolicitedNotifications: false,
  },
);
transportConformance(
  "HTTP modern, real port, JSON replies, node fetch",
  () => modernPair("port, node fetch", true),
  {
    serverRequests: false,
    unsolicitedNotifications: false,
  },
);
