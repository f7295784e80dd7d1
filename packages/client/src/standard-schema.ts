import type { StandardSchemaIssue, StandardSchemaV1 } from "@mcpkit/protocol";

// The one Standard Schema type is protocol's; the client exports it under the same names.
export type { StandardSchemaIssue, StandardSchemaV1 };

/** An issue's path as `a.b.0`, or "" at the root. */
export function issuePath(issue: StandardSchemaIssue): string {
  return (issue.path ?? [])
    .map((p) => (typeof p === "object" && p !== null ? String(p.key) : String(p)))
    .join(".");
}
