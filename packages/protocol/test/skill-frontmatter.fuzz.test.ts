import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { parseSkillMd, SkillFormatError } from "../src/skill-frontmatter.js";

// Fuzz target: the SKILL.md frontmatter parser (a server's skill files). Any text: a frontmatter object
// and a body, or a SkillFormatError, nothing else; a mapping of plain keys to quoted or plain strings,
// numbers and booleans reads back as itself.
const corpus = readCorpus(new URL("./fuzz-corpus/skill-frontmatter", import.meta.url).pathname);

const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "---\n",
        "---",
        "\n",
        "\r\n",
        "  ",
        "- ",
        ": ",
        "|",
        ">-",
        "[",
        "]",
        "{",
        "}",
        "#",
        "'",
        '"',
        "\t",
      ),
      fc.string({ unit: "binary", maxLength: 10 }),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,8}: [a-zA-Z0-9 ]{0,10}\n$/),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

it("SKILL.md: any text gives frontmatter and body, or a SkillFormatError", async () => {
  await fuzz(
    "skill-frontmatter",
    fc.oneof(
      yamlish,
      yamlish.map((t) => `---\n${t}`),
      yamlish.map((t) => `---\n${t}\n---\nbody`),
    ),
    (text) => {
      try {
        const { frontmatter, body } = parseSkillMd(text);
        expect(typeof frontmatter).toBe("object");
        expect(frontmatter).not.toBeNull();
        expect(Array.isArray(frontmatter)).toBe(false);
        expect(typeof body).toBe("string");
        // What it read is JSON (it goes into the skills/list entry as it is).
        expect(JSON.parse(JSON.stringify(frontmatter))).toEqual(frontmatter);
      } catch (error) {
        expect(error).toBeInstanceOf(SkillFormatError);
      }
    },
    corpus,
  );
});

it("SKILL.md: a mapping of plain keys to strings, numbers and booleans reads back as itself", async () => {
  const key = fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/);
  const value = fc.oneof(fc.string({ unit: "binary", maxLength: 20 }), fc.integer(), fc.boolean());
  await fuzz(
    "skill-frontmatter-roundtrip",
    fc.record({ fields: fc.dictionary(key, value, { maxKeys: 6 }), body: fc.string({ maxLength: 30 }) }),
    ({ fields, body }) => {
      // Strings double-quoted as JSON (a YAML double-quoted scalar), the rest as plain scalars.
      const yaml = Object.entries(fields)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
        .join("\n");
      const parsed = parseSkillMd(`---\n${yaml}\n---\n${body}`);
      expect(parsed.frontmatter).toEqual(fields);
      expect(parsed.body).toBe(body);
    },
  );
});
