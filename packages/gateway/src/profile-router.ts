import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  MessageInfo,
  SendOptions,
  Transport,
  TransportSink,
} from "@mcpkit/jsonrpc";
import type { ModernRequestContext, ServerLike } from "@mcpkit/transport-http";
import type { Caller } from "./caller.js";
import type { ProfileServer } from "./profile-server.js";

/**
 * The server the HTTP handler serves: each request goes to the server of its caller's profile (the
 * handler's `authenticate` put the {@link Caller} in `info.authInfo`). A 2026-07-28 request is routed
 * by itself; a legacy session by its first message (every message of a session has the same caller: the
 * handler binds a session to who opened it).
 */
export function createProfileRouter(
  profiles: ReadonlyMap<string, ProfileServer>,
  fallback: string,
): ServerLike {
  const pick = (info: MessageInfo | undefined) => {
    const caller = info?.authInfo as Caller | undefined;
    return (profiles.get(caller?.profile ?? fallback) ?? profiles.get(fallback)) as ProfileServer;
  };
  return {
    handle(message: JsonRpcRequest | JsonRpcNotification, context: ModernRequestContext) {
      return pick(context.info).server.handle(message, context) as ReturnType<ServerLike["handle"]>;
    },
    async connect(transport: Transport) {
      await routeSession(transport, (info) => pick(info).server);
    },
  };
}

/**
 * Starts `transport` at once (nothing it delivers is lost) and hands it to the server `choose` picks for
 * its first message, through a transport that replays what arrived meanwhile.
 */
async function routeSession(
  transport: Transport,
  choose: (info: MessageInfo | undefined) => { connect(t: Transport): Promise<unknown> },
): Promise<void> {
  let sink: TransportSink | undefined;
  const early: Array<[unknown, MessageInfo | undefined]> = [];
  let closed: { error?: Error } | undefined;
  let chosen = false;
  const routed: Transport = {
    traits: transport.traits,
    async start(given: TransportSink) {
      sink = given;
      for (const [value, info] of early.splice(0)) given.onMessage(value, info);
      if (closed) given.onClose(closed.error);
    },
    send: (message: JsonRpcMessage, options?: SendOptions) => transport.send(message, options),
    close: (reason?: Error) => transport.close(reason),
  };
  await transport.start({
    onMessage(value, info) {
      if (sink) return sink.onMessage(value, info);
      early.push([value, info]);
      if (chosen) return;
      chosen = true;
      void choose(info)
        .connect(routed)
        .catch((error: unknown) =>
          transport.close(error instanceof Error ? error : new Error(String(error))),
        );
    },
    onInvalid(error) {
      sink?.onInvalid(error);
    },
    onClose(error) {
      if (sink) sink.onClose(error);
      else closed = error === undefined ? {} : { error };
    },
  });
}
