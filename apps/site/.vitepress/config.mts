import { fileURLToPath } from "node:url";
import { type DefaultTheme, defineConfig } from "vitepress";
import { publicEntryPoints, specifier } from "../../../scripts/api-entry-points.mjs";

const repo = "https://github.com/mcpkit/mcpkit";

/** The guides, in reading order: the sidebar and the previous/next links follow it. */
const guides: DefaultTheme.SidebarItem[] = [
  {
    text: "Start",
    items: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "The two eras", link: "/guide/eras" },
    ],
  },
  {
    text: "Servers",
    items: [
      { text: "Tools", link: "/guide/tools" },
      { text: "Resources", link: "/guide/resources" },
      { text: "Prompts and completions", link: "/guide/prompts" },
      { text: "Elicitation, sampling, roots, MRTR", link: "/guide/input" },
      { text: "Tasks", link: "/guide/tasks" },
      { text: "Subscriptions", link: "/guide/subscriptions" },
      { text: "Skills", link: "/guide/skills" },
      { text: "MCP Apps", link: "/guide/apps" },
    ],
  },
  {
    text: "Clients and agents",
    items: [
      { text: "Clients", link: "/guide/clients" },
      { text: "The tool loop and the bridges", link: "/guide/tool-loop" },
      { text: "The CLI", link: "/guide/cli" },
    ],
  },
  {
    text: "Deploying",
    items: [
      { text: "Transports", link: "/guide/transports" },
      { text: "HTTP on every runtime", link: "/guide/http" },
      { text: "Auth", link: "/guide/auth" },
      { text: "Scale-out on Redis", link: "/guide/redis" },
      { text: "Telemetry", link: "/guide/telemetry" },
      { text: "Security", link: "/guide/security" },
      { text: "Performance", link: "/guide/performance" },
    ],
  },
  {
    text: "Tools around it",
    items: [
      { text: "Testing and cassettes", link: "/guide/testing" },
      { text: "The inspector", link: "/guide/inspector" },
      { text: "The gateway", link: "/guide/gateway" },
      { text: "Migrating from the official SDK", link: "/guide/migrating" },
    ],
  },
];

/** One entry per public entry point, each linking to its generated module page. */
const reference: DefaultTheme.SidebarItem[] = [
  { text: "Overview", link: "/api/" },
  ...publicEntryPoints().map((entry) => ({ text: specifier(entry), link: `/api/${specifier(entry)}` })),
];

export default defineConfig({
  title: "mcpkit",
  description: "The Model Context Protocol for TypeScript, client and server, both protocol eras.",
  cleanUrls: false,
  lastUpdated: false,
  outDir: "dist",
  cacheDir: fileURLToPath(new URL("../node_modules/.cache/vitepress", import.meta.url)),
  srcExclude: ["README.md", "test/**", "screenshots/**"],
  markdown: {
    theme: { light: "github-light", dark: "github-dark" },
    // Doc comments quote templates such as `{{result}}`: inline code is text, never a Vue interpolation.
    config(md) {
      const codeInline = md.renderer.rules.code_inline!;
      md.renderer.rules.code_inline = (tokens, index, options, env, self) =>
        codeInline(tokens, index, options, env, self).replace(/^<code/, "<code v-pre");
    },
  },
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "API", link: "/api/" },
      { text: "Examples", link: `${repo}/tree/main/apps/docs/examples` },
    ],
    sidebar: { "/guide/": guides, "/api/": reference },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: "github", link: repo }],
    footer: { message: "MIT licensed. Every code block on this site is a file that CI compiles and runs." },
  },
});
