// Checks the built site's internal links and their anchors: every `href` to a page of the site must name a
// page that was built, and a `#fragment` an id on that page. VitePress already fails the build on a dead
// page link; this adds the anchors (and the links that Markdown includes and the API pages bring in).
// Usage: node scripts/check-anchors.mjs [distDir]   (exits 1 and lists each broken link)
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const dist = process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url));

/** Every .html file under `dir`, as site paths (`/guide/tools.html`). */
function pages(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((file) => String(file).endsWith(".html"))
    .map(
      (file) =>
        `/${relative(dist, join(dir, String(file)))
          .split(sep)
          .join("/")}`,
    );
}

const decode = (text) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

const all = pages(dist);
const ids = new Map();
const links = [];
for (const page of all) {
  const html = readFileSync(join(dist, page), "utf8");
  ids.set(page, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]))));
  for (const [, raw] of html.matchAll(/<a\s[^>]*?href="([^"]+)"/g)) links.push({ page, href: decode(raw) });
}

/** The built file a site path names: `/guide/tools` and `/guide/tools.html` → `/guide/tools.html`. */
function resolvePage(path) {
  const candidates = path.endsWith("/")
    ? [`${path}index.html`]
    : [path, `${path}.html`, `${path}/index.html`];
  return candidates.find((candidate) => ids.has(candidate));
}

const broken = [];
for (const { page, href } of links) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) continue; // external: not checked offline
  const [pathPart, fragment] = href.split("#", 2);
  const path = pathPart === "" ? page : posix.resolve(posix.dirname(page), pathPart);
  if (/\.(png|svg|ico|json|txt|woff2?)$/.test(path)) continue;
  const target = resolvePage(decodeURIComponent(path));
  if (!target) broken.push(`${page}: ${href} (no such page)`);
  else if (fragment && !ids.get(target).has(decodeURIComponent(fragment))) {
    broken.push(`${page}: ${href} (no #${fragment} on ${target})`);
  }
}

if (broken.length > 0) {
  console.error(`${broken.length} broken internal link(s):\n${broken.slice(0, 50).join("\n")}`);
  process.exit(1);
}
console.log(`links: ${links.length} checked on ${all.length} pages, every internal page and anchor exists`);
