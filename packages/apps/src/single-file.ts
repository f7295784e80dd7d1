/** What {@link singleFileHtml} puts in the document. */
export interface SingleFileHtmlOptions {
  /** The view's bundled script (an ES module or a classic script), inlined into `<script type="module">`. */
  readonly script: string;
  /** Its CSS, inlined into `<style>`. */
  readonly style?: string | undefined;
  /** The body's markup, before the script. */
  readonly body?: string | undefined;
  /** The document's title. */
  readonly title?: string | undefined;
}

const escapeText = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Makes one self-contained HTML5 document of a built view: its script and CSS inlined, so the view
 * needs no network (the default CSP allows inline script and style, and no other origin).
 *
 * A `</script` or `</style` inside the code is escaped so it cannot end the element early.
 */
export function singleFileHtml(options: SingleFileHtmlOptions): string {
  const script = options.script.replace(/<\/(script)/gi, "<\\/$1");
  const style = options.style?.replace(/<\/(style)/gi, "<\\/$1");
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(options.title ?? "MCP App")}</title>`,
    style === undefined ? "" : `<style>${style}</style>`,
    "</head>",
    "<body>",
    options.body ?? "",
    `<script type="module">${script}</script>`,
    "</body>",
    "</html>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}
