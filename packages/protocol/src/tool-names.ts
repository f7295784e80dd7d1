/** The longest tool name the spec's rules allow. */
export const MAX_TOOL_NAME_LENGTH = 128;

const ALLOWED = /^[A-Za-z0-9_.-]*$/;

/**
 * Which of the spec's tool name rules `name` breaks, as a sentence naming the rule, or undefined when
 * it keeps them: 1-128 characters, only ASCII letters, digits, `_`, `-` and `.` (no spaces, commas,
 * slashes or other characters). Names are case-sensitive, so case never breaks a rule.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-names (SEP-986)
 */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return "length rule: a tool name must have 1-128 characters, it is empty";
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    return `length rule: a tool name must have 1-128 characters, it has ${name.length}`;
  }
  if (!ALLOWED.test(name)) {
    const bad = [...name].find((c) => !ALLOWED.test(c))!;
    return `character rule: a tool name may hold only A-Z a-z 0-9 _ - . and it holds ${JSON.stringify(bad)}`;
  }
  return undefined;
}
