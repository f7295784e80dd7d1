// The doc-comment check: every exported declaration of a public package's sources (its internal modules
// included, as STYLE.md asks) carries a JSDoc comment. Overloads count as one declaration, documented when
// any of them is; re-exports (`export { x } from`) are checked where they are declared.
import { relative, sep } from "node:path";
import ts from "typescript";
import { publicEntryPoints, repoRoot } from "./api-entry-points.mjs";

const DECLARATIONS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.ModuleDeclaration,
]);

const hasJsDoc = (node) => ts.getJSDocCommentsAndTags(node).some((doc) => ts.isJSDoc(doc));

/**
 * Every exported declaration in the program's source files under a public package's src/ (tests left out):
 * `{ total, missing: ["packages/x/src/file.ts:12 name", …] }`.
 */
export function readExportDocs(program, entryPoints = publicEntryPoints()) {
  const sourceDirs = [...new Set(entryPoints.map((entry) => `${entry.dir}${sep}src${sep}`))];
  let total = 0;
  const missing = [];
  for (const sourceFile of program.getSourceFiles()) {
    const file = sourceFile.fileName.split("/").join(sep);
    if (!sourceDirs.some((dir) => file.startsWith(dir)) || /\.test\.ts$|\.d\.ts$/.test(file)) continue;
    const documented = new Map();
    for (const statement of sourceFile.statements) {
      if (!DECLARATIONS.has(statement.kind)) continue;
      if (!(ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export)) continue;
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((declaration) => declaration.name.getText(sourceFile))
        : [statement.name?.getText(sourceFile) ?? "default"];
      for (const name of names) {
        const line = sourceFile.getLineAndCharacterOfPosition(statement.getStart(sourceFile)).line + 1;
        const known = documented.get(name);
        if (known) known.documented ||= hasJsDoc(statement);
        else documented.set(name, { line, documented: hasJsDoc(statement) });
      }
    }
    for (const [name, { line, documented: ok }] of documented) {
      total += 1;
      if (!ok) missing.push(`${relative(repoRoot, sourceFile.fileName)}:${line} ${name}`);
    }
  }
  return { total, missing };
}
