import type { IncomingMessage, ServerResponse } from "node:http";
import type { ElicitResult, LoggingLevel } from "@mcpkit/protocol";
import { errorLine, type InspectorConnection } from "./connection.js";
import { isTarget } from "./target.js";

/** What the API routes act on: the open connections, and how to open one. */
export interface ApiContext {
  connections: Map<string, InspectorConnection>;
  open(target: import("./target.js").InspectorTarget): InspectorConnection;
}

const MAX_BODY = 4 * 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, "the request body is over 4 MiB");
    chunks.push(chunk as Buffer);
  }
  if (chunks.length === 0) return {};
  const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ApiError(400, "the body is not a JSON object");
  return value as Record<string, unknown>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const str = (value: unknown, name: string): string => {
  if (typeof value !== "string" || value === "")
    throw new ApiError(400, `"${name}" must be a non-empty string`);
  return value;
};

const obj = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * Handles `/api/…`: `GET /api/connections`, `POST /api/connections {target}`, and per connection
 * `POST /api/connections/ID/OP` with OP one of connect, close, list, call, cancel, read, prompt, answer,
 * log-level, and `GET /api/connections/ID/wire`. A server's failure is a 502 with `{error}`; the page stays up.
 */
export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  ctx: ApiContext,
): Promise<void> {
  try {
    const parts = pathname.split("/").filter(Boolean).slice(1);
    if (parts[0] !== "connections") throw new ApiError(404, `no API ${pathname}`);
    if (parts.length === 1) {
      if (req.method === "GET")
        return send(res, 200, { connections: [...ctx.connections.values()].map((c) => c.summary()) });
      if (req.method !== "POST") throw new ApiError(405, "GET or POST");
      const body = await readJson(req);
      if (!isTarget(body.target))
        throw new ApiError(400, '"target" must be {kind:"stdio",command,args?} or {kind:"http",url,mode?}');
      const connection = ctx.open(body.target);
      return send(res, 200, await connection.connect());
    }
    const connection = ctx.connections.get(parts[1] ?? "");
    if (!connection) throw new ApiError(404, `no connection ${parts[1]}`);
    const op = parts[2];
    if (req.method === "GET" && op === "wire") return send(res, 200, { entries: connection.wire.entries });
    if (req.method === "GET" && op === undefined) return send(res, 200, connection.summary());
    if (req.method !== "POST") throw new ApiError(405, "POST");
    const body = await readJson(req);
    try {
      switch (op) {
        case "connect":
          return send(res, 200, await connection.connect());
        case "close":
          await connection.close();
          ctx.connections.delete(connection.id);
          return send(res, 200, { closed: true });
        case "list": {
          const what = body.what;
          if (what !== "tools" && what !== "resources" && what !== "templates" && what !== "prompts")
            throw new ApiError(400, '"what" must be tools, resources, templates or prompts');
          return send(res, 200, { items: await connection.list(what) });
        }
        case "call":
          return send(
            res,
            200,
            await connection.call(str(body.callId, "callId"), str(body.name, "name"), obj(body.arguments)),
          );
        case "cancel":
          return send(res, 200, { cancelled: connection.cancel(str(body.callId, "callId")) });
        case "read":
          return send(res, 200, await connection.read(str(body.uri, "uri")));
        case "prompt":
          return send(
            res,
            200,
            await connection.prompt(str(body.name, "name"), obj(body.arguments) as Record<string, string>),
          );
        case "answer": {
          const action = body.action;
          if (action !== "accept" && action !== "decline" && action !== "cancel")
            throw new ApiError(400, '"action" must be accept, decline or cancel');
          const result = (
            action === "accept" ? { action, content: obj(body.content) } : { action }
          ) as ElicitResult;
          return send(res, 200, { answered: connection.answer(str(body.elicitId, "elicitId"), result) });
        }
        case "log-level":
          await connection.setLogLevel(str(body.level, "level") as LoggingLevel);
          return send(res, 200, { ok: true });
        default:
          throw new ApiError(404, `no operation ${op}`);
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The server's failure (an MCP error, a crash, a timeout): the page shows it, the inspector goes on.
      const e = error as { code?: unknown; data?: unknown };
      return send(res, 502, {
        error: errorLine(error),
        ...(typeof e.code === "number" ? { code: e.code } : {}),
      });
    }
  } catch (error) {
    if (error instanceof ApiError) return send(res, error.status, { error: error.message });
    if (error instanceof SyntaxError)
      return send(res, 400, { error: `the body is not JSON: ${error.message}` });
    return send(res, 500, { error: errorLine(error) });
  }
}
