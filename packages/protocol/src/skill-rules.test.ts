import { describe, expect, it } from "vitest";
import { skillEntryProblem, skillNameProblem, skillUriParts } from "./skill-rules.js";

const digest = `sha256:${"ab".repeat(32)}`;
const entry = () => ({
  uri: "skill://acme/billing/refunds/SKILL.md",
  frontmatter: { name: "refunds", description: "Process refunds" },
  resources: [
    { uri: "skill://acme/billing/refunds/SKILL.md", digest, size: 10 },
    { uri: "skill://acme/billing/refunds/examples/email.md", digest, size: 3 },
  ],
});

describe("skill names and URIs", () => {
  it("applies the Agent Skills naming rules", () => {
    expect(skillNameProblem("pdf-processing")).toBeUndefined();
    expect(skillNameProblem("a")).toBeUndefined();
    expect(skillNameProblem("")).toMatch(/1-64/);
    expect(skillNameProblem("x".repeat(65))).toMatch(/1-64/);
    expect(skillNameProblem("Pdf")).toMatch(/lowercase/);
    expect(skillNameProblem("a--b")).toMatch(/two hyphens/);
    expect(skillNameProblem("-a")).toMatch(/begin or end/);
    expect(skillNameProblem("a-")).toMatch(/begin or end/);
  });

  it("splits a SKILL.md URI into root and name", () => {
    expect(skillUriParts("skill://acme/billing/refunds/SKILL.md")).toEqual({
      root: "skill://acme/billing/refunds",
      name: "refunds",
    });
    expect(skillUriParts("skill://git-workflow/SKILL.md")).toEqual({
      root: "skill://git-workflow",
      name: "git-workflow",
    });
    expect(skillUriParts("skill://SKILL.md")).toBeUndefined();
    expect(skillUriParts("skill://a/README.md")).toBeUndefined();
  });
});

describe("skillEntryProblem", () => {
  it("accepts a complete entry and a dynamic one", () => {
    expect(skillEntryProblem(entry())).toBeUndefined();
    expect(skillEntryProblem({ ...entry(), resources: "dynamic" })).toBeUndefined();
  });

  it("names the first rule an entry breaks", () => {
    const e = entry();
    expect(skillEntryProblem({ ...e, resources: undefined })).toMatch(/neither an array nor "dynamic"/);
    expect(skillEntryProblem({ ...e, frontmatter: { name: "other", description: "d" } })).toMatch(
      /last segment/,
    );
    expect(skillEntryProblem({ ...e, resources: [e.resources[1]] })).toMatch(/does not list .*SKILL.md/);
    expect(skillEntryProblem({ ...e, resources: [...e.resources, e.resources[1]] })).toMatch(/twice/);
    expect(
      skillEntryProblem({ ...e, resources: [...e.resources, { uri: "skill://x/y", digest, size: 1 }] }),
    ).toMatch(/outside/);
    expect(skillEntryProblem({ ...e, resources: [{ ...e.resources[0], digest: "sha256:ABC" }] })).toMatch(
      /digest/,
    );
    expect(skillEntryProblem({ ...e, resources: [{ ...e.resources[0], size: -1 }] })).toMatch(/size/);
  });
});
