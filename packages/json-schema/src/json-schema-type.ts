/**
 * A JSON Schema object (2020-12 by default since MCP 2025-11-25). Kept open: any keyword may appear,
 * including `x-mcp-header` on properties (MCP 2026-07-28).
 */
export interface JsonSchema {
  $schema?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}
