import { permissionsAllow, viewCsp } from "./csp.js";

/** What {@link sandboxProxyHtml} needs to know. */
export interface SandboxProxyOptions {
  /** The host page's origin (`https://chat.example.com`): the only window the proxy takes orders from. */
  readonly hostOrigin: string;
  /**
   * The inner iframe's `sandbox` tokens when the host does not send its own. Default
   * `allow-scripts allow-forms`: no `allow-same-origin`, so the view runs in an opaque origin and cannot
   * reach the proxy's document, storage or cookies.
   */
  readonly innerSandbox?: string | undefined;
}

/**
 * The sandbox proxy page: serve it on an origin other than the host's (the spec requires it of web
 * hosts) and point `renderApp`'s `sandboxUrl` at it.
 *
 * It announces itself to the host with `ui/notifications/sandbox-proxy-ready`, takes the view from the
 * host's `ui/notifications/sandbox-resource-ready` (once; later ones are ignored), loads it into an inner
 * iframe whose document starts with a `<meta>` Content-Security-Policy built by `viewCsp` from the
 * declared `csp`, with the `allow` attribute from `permissions` (`permissionsAllow`); its own policy
 * takes the view's `frame-src`, so the view cannot navigate its frame to an undeclared origin. Then it
 * forwards every message between the host and the view except the reserved `ui/notifications/sandbox-*`
 * ones. Messages from any other window, or from the parent on another origin than `hostOrigin`, are
 * dropped. It sends no request of its own.
 * @see https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#sandbox-proxy
 */
export function sandboxProxyHtml(options: SandboxProxyOptions): string {
  const config = JSON.stringify({
    hostOrigin: new URL(options.hostOrigin).origin,
    innerSandbox: options.innerSandbox ?? "allow-scripts allow-forms",
  }).replace(/</g, "\\u003c");
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(function () {
  var config = ${config};
  var viewCsp = ${viewCsp.toString()};
  var RESERVED = "ui/notifications/sandbox-";
  var inner = null;
  var allowOf = ${permissionsAllow.toString()};
  function withCsp(html, policy) {
    var meta = '<meta http-equiv="Content-Security-Policy" content="' + policy.replace(/"/g, "&quot;") + '">';
    var doctype = /^\\uFEFF?\\s*<!doctype[^>]*>/i.exec(html);
    return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
  }
  function isReserved(data) {
    return data && typeof data === "object" && typeof data.method === "string" && data.method.indexOf(RESERVED) === 0;
  }
  function load(params) {
    if (inner || !params || typeof params.html !== "string") return;
    inner = document.createElement("iframe");
    inner.setAttribute("sandbox", typeof params.sandbox === "string" ? params.sandbox : config.innerSandbox);
    var allow = allowOf(params.permissions);
    if (allow) inner.setAttribute("allow", allow);
    inner.setAttribute("title", "MCP App view");
    var policy = viewCsp(params.csp);
    // The proxy's own frame-src (the view's, or 'none'): the view cannot navigate its frame elsewhere.
    var guard = document.createElement("meta");
    guard.httpEquiv = "Content-Security-Policy";
    guard.content = /frame-src [^;]*/.exec(policy)[0];
    document.head.appendChild(guard);
    inner.srcdoc = withCsp(params.html, policy);
    document.body.appendChild(inner);
  }
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.source === window.parent && event.origin === config.hostOrigin) {
      if (isReserved(data)) {
        if (data.method === RESERVED + "resource-ready") load(data.params);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, "*");
      return;
    }
    if (inner && event.source === inner.contentWindow) {
      if (isReserved(data)) return;
      window.parent.postMessage(data, config.hostOrigin);
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: RESERVED + "proxy-ready", params: {} }, config.hostOrigin);
})();
</script></body></html>
`;
}

/**
 * Response headers for the proxy page: only the host may frame it (`frame-ancestors`), and it is never
 * cached across hosts or sniffed as anything but HTML.
 */
export function sandboxProxyHeaders(
  options: Pick<SandboxProxyOptions, "hostOrigin">,
): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `frame-ancestors ${new URL(options.hostOrigin).origin}`,
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
  };
}
