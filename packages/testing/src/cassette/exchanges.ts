import type { CassetteEvent } from "./cassette.js";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** Which client message each server message of a cassette answers or belongs to. */
export interface CassetteExchanges {
  /**
   * For each event index: the index of the client event that owns it (itself for a client event), or
   * -1 for a server message sent before the client said anything.
   */
  owner: number[];
  /** For each event index: the index of the nearest client event before it, or -1. */
  previousClient: number[];
  /** For each client request index: the index of its response, when the cassette has one. */
  response: Map<number, number>;
}

function params(message: unknown): Record<string, unknown> | undefined {
  const p = (message as { params?: unknown }).params;
  return p !== null && typeof p === "object" ? (p as Record<string, unknown>) : undefined;
}

/** `_meta.progressToken` of a request, or `undefined`. */
export function progressTokenOf(message: unknown): unknown {
  const meta = params(message)?._meta as Record<string, unknown> | undefined;
  return meta?.progressToken;
}

/** The subscription id a listen-stream notification carries in `_meta`, or `undefined`. */
export function subscriptionIdOf(message: unknown): unknown {
  const meta = params(message)?._meta as Record<string, unknown> | undefined;
  return meta?.[SUBSCRIPTION_ID];
}

/**
 * Ties every server message to the client message it belongs to: a response to its request (by id),
 * progress to the request that gave its token, a listen-stream notification to its `subscriptions/listen`
 * (by subscription id), anything else to the latest client request still unanswered at that point, or
 * else to the latest client message before it.
 */
export function indexExchanges(events: readonly CassetteEvent[]): CassetteExchanges {
  const owner: number[] = [];
  const previousClient: number[] = [];
  const response = new Map<number, number>();
  const requestById = new Map<string, number>();
  const requestByToken = new Map<string, number>();
  const open: number[] = [];
  let lastClient = -1;
  events.forEach((event, i) => {
    previousClient.push(lastClient);
    const message = event.message as { id?: unknown; method?: unknown };
    const isRequest = typeof message.method === "string" && message.id !== undefined;
    const isResponse = typeof message.method !== "string";
    if (event.from === "client") {
      owner.push(i);
      lastClient = i;
      if (isRequest) {
        requestById.set(JSON.stringify(message.id), i);
        const token = progressTokenOf(message);
        if (token !== undefined) requestByToken.set(JSON.stringify(token), i);
        open.push(i);
      }
      return;
    }
    let o: number | undefined;
    if (isResponse) {
      o = requestById.get(JSON.stringify(message.id));
      if (o !== undefined) {
        response.set(o, i);
        const at = open.indexOf(o);
        if (at >= 0) open.splice(at, 1);
      }
    } else {
      const token = progressTokenOf(message);
      const progress = params(message)?.progressToken;
      const subscription = subscriptionIdOf(message);
      if (progress !== undefined) o = requestByToken.get(JSON.stringify(progress));
      if (o === undefined && token !== undefined) o = requestByToken.get(JSON.stringify(token));
      if (o === undefined && subscription !== undefined) o = requestById.get(JSON.stringify(subscription));
    }
    owner.push(o ?? open[open.length - 1] ?? lastClient);
  });
  return { owner, previousClient, response };
}
