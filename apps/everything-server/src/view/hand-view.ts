// The counter view written by hand: no SDK, just JSON-RPC over postMessage (the README's example). The
// server serves it when it was not given the built view.

/** A complete HTML5 view: initialize, show tool input and result, call counter_bump, report its size. */
export const HAND_VIEW_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Counter</title>
<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif}.counter{font-size:40px;font-weight:600}</style>
</head><body>
<h1 id="title">Counter</h1><div class="counter" id="counter">…</div>
<button id="bump">Bump</button> <button id="grow">Grow</button> <button id="link">Open the spec</button>
<p id="status">Waiting for the host…</p><p id="input"></p><p id="answer"></p><div id="log"></div>
<script type="module">
let nextId = 1;
const pending = new Map();
const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
const $ = (id) => document.getElementById(id);
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const m = event.data;
  if (m?.id !== undefined && pending.has(m.id)) {
    const { resolve, reject } = pending.get(m.id);
    pending.delete(m.id);
    return m.error ? reject(new Error(m.error.message)) : resolve(m.result);
  }
  if (m?.method === "ui/notifications/tool-input") $("input").textContent = "Tool input: " + JSON.stringify(m.params.arguments ?? {});
  if (m?.method === "ui/notifications/tool-result") {
    $("counter").textContent = String(m.params.structuredContent?.counter ?? "?");
    $("status").textContent = "Tool result received";
  }
  if (m?.method === "ui/resource-teardown") send({ id: m.id, result: {} });
});
new ResizeObserver(() => {
  const { width, height } = document.documentElement.getBoundingClientRect();
  send({ method: "ui/notifications/size-changed", params: { width: Math.ceil(width), height: Math.ceil(height) } });
}).observe(document.documentElement);
$("bump").onclick = async () => {
  try {
    const result = await request("tools/call", { name: "counter_bump", arguments: {} });
    $("counter").textContent = String(result.structuredContent?.counter ?? "?");
    $("answer").textContent = result.content.map((c) => c.text).join(" ");
  } catch (error) {
    $("answer").textContent = "Refused: " + error.message;
  }
};
$("grow").onclick = () => $("log").append(Object.assign(document.createElement("p"), { textContent: "Another line." }));
$("link").onclick = () => request("ui/open-link", { url: "https://modelcontextprotocol.io/extensions/apps" });
const init = await request("ui/initialize", {
  protocolVersion: "2026-01-26",
  appInfo: { name: "hand-written-counter", version: "1.0.0" },
  appCapabilities: {},
});
send({ method: "ui/notifications/initialized", params: {} });
$("status").textContent = "Connected to " + init.hostInfo.name;
</script></body></html>
`;
