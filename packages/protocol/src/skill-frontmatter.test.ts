import { describe, expect, it } from "vitest";
import { frontmatterDifferences, parseSkillMd, SkillFormatError } from "./skill-frontmatter.js";

const md = (yaml: string, body = "# Body\n") => `---\n${yaml}\n---\n${body}`;

describe("parseSkillMd", () => {
  it("splits the frontmatter from the body", () => {
    const { frontmatter, body } = parseSkillMd(
      md("name: pdf-processing\ndescription: Extract, fill, and assemble PDF documents"),
    );
    expect(frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
    });
    expect(body).toBe("# Body\n");
  });

  it("reads the YAML that frontmatter uses", () => {
    const yaml = [
      "name: refunds # a comment",
      'description: "Process \\"refund\\" requests: per policy"',
      "license: 'Apache-2.0'",
      "version: 2",
      "ratio: 1.5",
      "draft: false",
      "owner: ~",
      "metadata:",
      "  author: acme",
      "  tags: [billing, 'refunds', 3]",
      "  nested:",
      "    deep: true",
      "allowed-tools: Bash(git:*) Read",
      "steps:",
      "- first",
      "- name: second",
      "  weight: 2",
      "notes: |",
      "  line one",
      "    indented",
      "",
      "  line three",
      "summary: >-",
      "  folded",
      "  text",
      "long: this description",
      "  goes on",
      "empty:",
      "inline: {a: 1, b: x}",
    ].join("\n");
    expect(parseSkillMd(md(yaml)).frontmatter).toEqual({
      name: "refunds",
      description: 'Process "refund" requests: per policy',
      license: "Apache-2.0",
      version: 2,
      ratio: 1.5,
      draft: false,
      owner: null,
      metadata: { author: "acme", tags: ["billing", "refunds", 3], nested: { deep: true } },
      "allowed-tools": "Bash(git:*) Read",
      steps: ["first", { name: "second", weight: 2 }],
      notes: "line one\n  indented\n\nline three\n",
      summary: "folded text",
      long: "this description goes on",
      empty: null,
      inline: { a: 1, b: "x" },
    });
  });

  it("ignores a byte order mark and accepts CRLF and an empty block", () => {
    expect(parseSkillMd("\ufeff---\r\nname: a\r\n---\r\nbody").frontmatter).toEqual({ name: "a" });
    expect(parseSkillMd("---\n---\nbody")).toEqual({ frontmatter: {}, body: "body" });
  });

  it("refuses what it does not read, naming the line", () => {
    const cases: [string, RegExp][] = [
      ["no frontmatter", /must begin with YAML frontmatter/],
      [md("name: a\nname: b"), /line 2: the key "name" appears twice/],
      [md("name: &x a"), /line 1: anchors, aliases and tags/],
      [md("name: 'open"), /line 1: a quoted value must end/],
      [md("- a\n- b"), /must be a mapping/],
      [md("a: 1\n   b: 2"), /line 2: unexpected indentation/],
      [md("just text"), /line 1: expected/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseSkillMd(text)).toThrow(SkillFormatError);
      expect(() => parseSkillMd(text)).toThrow(message);
    }
  });
});

describe("frontmatterDifferences", () => {
  it("lists the fields that differ, ignoring key order", () => {
    expect(frontmatterDifferences({ a: 1, b: { x: [1, 2] } }, { b: { x: [1, 2] }, a: 1 })).toEqual([]);
    expect(frontmatterDifferences({ a: 1, b: "x", c: [1] }, { a: 2, b: "x", d: true })).toEqual([
      "a",
      "c",
      "d",
    ]);
  });
});
