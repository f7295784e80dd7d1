// The page's side of the inspector's API: JSON requests (the cookie carries the token) and the event stream.

/** A failed API request: the server's one-line error. */
export class ApiFailure extends Error {}

/** POSTs `body` to `/api/<path>` and returns the JSON answer. @throws ApiFailure with the server's error. */
export async function post<T = unknown>(path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as {
    error?: string;
  };
  if (!response.ok) throw new ApiFailure(json.error ?? `HTTP ${response.status}`);
  return json as T;
}

/** GETs `/api/<path>`. */
export async function get<T = unknown>(path: string): Promise<T> {
  const response = await fetch(`/api/${path}`);
  if (!response.ok) throw new ApiFailure(`HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** An event of the inspector's stream. */
export interface InspectorEvent {
  type: string;
  connection?: string;
  [key: string]: unknown;
}

/** Listens to the event stream; returns a function that stops. */
export function listen(onEvent: (event: InspectorEvent) => void): () => void {
  const source = new EventSource("/api/events");
  source.onmessage = (message) => {
    try {
      onEvent(JSON.parse(message.data as string) as InspectorEvent);
    } catch {
      // A malformed frame is dropped; the stream goes on.
    }
  };
  return () => source.close();
}
