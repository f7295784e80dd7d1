// The counter view, written with the official ext-apps App class (the build bundles it, with its
// dependencies, into one HTML file: scripts/build-view.mjs). Runs in the host's sandboxed iframe.
import { App } from "@modelcontextprotocol/ext-apps/app-with-deps";

const STYLE = `
  :root { color-scheme: light dark; --accent: #3355ff; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 16px; }
  h1 { font-size: 16px; margin: 0 0 8px; }
  .counter { font-size: 40px; font-weight: 600; margin: 8px 0; }
  .row { display: flex; gap: 8px; flex-wrap: wrap; }
  button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: white; }
  .muted { color: #777; font-size: 13px; margin: 6px 0 0; }
  #log p { margin: 4px 0; }
`;

document.head.insertAdjacentHTML("beforeend", `<style>${STYLE}</style>`);
document.body.innerHTML = `
  <h1 id="title">Counter</h1>
  <div class="counter" id="counter">…</div>
  <div class="row">
    <button id="bump">Bump</button>
    <button id="grow">Grow</button>
    <button id="link">Open the spec</button>
    <button id="copy">Copy</button>
  </div>
  <p class="muted" id="status">Waiting for the host…</p>
  <p class="muted" id="input"></p>
  <p class="muted" id="answer"></p>
  <div id="log"></div>`;

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const counterOf = (structured: unknown) => (structured as { counter?: unknown } | undefined)?.counter;
const textOf = (content: unknown) =>
  Array.isArray(content) ? content.map((c) => (c as { text?: string }).text ?? "").join(" ") : "";

const app = new App({ name: "everything-counter-view", version: "1.0.0" }, {}, { autoResize: true });
app.ontoolinput = ({ arguments: args }) => {
  $("input").textContent = `Tool input: ${JSON.stringify(args ?? {})}`;
  const label = (args as { label?: unknown } | undefined)?.label;
  if (typeof label === "string") $("title").textContent = `Counter: ${label}`;
};
app.ontoolresult = (result) => {
  $("counter").textContent = String(counterOf(result.structuredContent) ?? "?");
  $("status").textContent = "Tool result received";
};
app.onhostcontextchanged = (changes) => {
  if (changes.theme) document.documentElement.dataset.theme = changes.theme;
};
app.onteardown = async () => {
  $("status").textContent = "Torn down";
  return {};
};
$("bump").addEventListener("click", async () => {
  try {
    const result = await app.callServerTool({ name: "counter_bump", arguments: {} });
    $("counter").textContent = String(counterOf(result.structuredContent) ?? "?");
    $("answer").textContent = textOf(result.content);
  } catch (error) {
    $("answer").textContent = `Refused: ${(error as Error).message}`;
  }
});
$("grow").addEventListener("click", () => {
  const line = document.createElement("p");
  line.textContent = `Line ${$("log").childElementCount + 1}: the view grew, the host's frame follows.`;
  $("log").append(line);
});
$("copy").addEventListener("click", () => {
  // Granted only when the host honours the view's clipboardWrite permission (the iframes' allow attribute).
  navigator.clipboard?.writeText($("counter").textContent ?? "").then(
    () => ($("answer").textContent = "Copied"),
    (error: Error) => ($("answer").textContent = `Copy refused: ${error.name}`),
  );
});
$("link").addEventListener("click", () => {
  void app.openLink({ url: "https://modelcontextprotocol.io/extensions/apps" });
});

await app.connect();
$("status").textContent = `Connected to ${app.getHostVersion()?.name ?? "the host"}`;
const theme = app.getHostContext()?.theme;
if (theme) document.documentElement.dataset.theme = theme;
