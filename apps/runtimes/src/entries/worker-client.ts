// The workerd cell's client: a worker that, on a request, runs the client checks against the Node server
// whose URL it is given (`?url=`), and answers with the report as JSON.
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { runClientChecks } from "../fixtures/client-checks.js";

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url).searchParams.get("url");
    if (!url) return new Response("?url= is required", { status: 400 });
    const reports = await runClientChecks(
      (era) => createStreamableHttpClientTransport({ url, era }),
      "workerd",
    );
    return Response.json(reports);
  },
};
