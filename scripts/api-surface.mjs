// The public surface of mcpkit as text: every export of every public entry point (scripts/api-entry-points.mjs)
// with its signature, read by the TypeScript checker from the sources (no build needed), and whether it has
// a doc comment. scripts/api-report.mjs writes and checks the reports from it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { publicEntryPoints, repoRoot, specifier } from "./api-entry-points.mjs";

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;

/** The compiler options of the repository (tsconfig.base.json: the "@mcpkit/source" condition, strict). */
function compilerOptions() {
  const path = join(repoRoot, "tsconfig.base.json");
  const { config } = ts.readConfigFile(path, (file) => readFileSync(file, "utf8"));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(path)).options;
}

const printer = ts.createPrinter({ removeComments: true, omitTrailingSemicolon: false });

/** A node as the printer writes it (its own layout, comments dropped: the source's formatting never shows). */
function print(node) {
  return printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile()).trim();
}

/** Whether one of the symbol's declarations carries a JSDoc comment. */
export function hasDocComment(symbol) {
  return (symbol.declarations ?? []).some((declaration) => {
    const target = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    return ts.getJSDocCommentsAndTags(target).some((doc) => ts.isJSDoc(doc));
  });
}

function isPublicMember(declaration) {
  const flags = ts.getCombinedModifierFlags(declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  const name = declaration.name;
  return !(name && ts.isPrivateIdentifier(name));
}

/** The lines describing one exported symbol (a name can be a value and a type at once). */
function describe(checker, name, symbol) {
  const lines = [];
  const declarations = symbol.declarations ?? [];
  const typeText = (type, node) => checker.typeToString(type, node, FORMAT);
  for (const declaration of declarations) {
    if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) {
      lines.push(print(declaration).replace(/^(export )?(declare )?/, ""));
    } else if (ts.isEnumDeclaration(declaration)) {
      lines.push(print(declaration).replace(/^(export )?(declare )?/, ""));
    }
  }
  if (symbol.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbol(symbol);
    for (const signature of type.getCallSignatures()) {
      lines.push(`function ${name}${checker.signatureToString(signature, undefined, FORMAT)}`);
    }
  }
  if (symbol.flags & ts.SymbolFlags.Variable) {
    const declaration = declarations.find(ts.isVariableDeclaration);
    const kind = declaration && declaration.parent.flags & ts.NodeFlags.Const ? "const" : "let";
    lines.push(`${kind} ${name}: ${typeText(checker.getTypeOfSymbol(symbol), declaration)}`);
  }
  if (symbol.flags & ts.SymbolFlags.Class) {
    const declaration = declarations.find(ts.isClassDeclaration);
    const heritage = (declaration?.heritageClauses ?? []).map(print).join(" ");
    const members = [];
    const statics = checker.getTypeOfSymbol(symbol);
    for (const signature of statics.getConstructSignatures()) {
      const text = checker.signatureToString(signature, undefined, FORMAT);
      members.push(`constructor${text.replace(/: [^:]+$/, "")};`);
    }
    const memberLines = (type, prefix) => {
      for (const property of checker.getPropertiesOfType(type)) {
        const memberDeclaration = property.valueDeclaration ?? property.declarations?.[0];
        if (property.name === "prototype" || (memberDeclaration && !isPublicMember(memberDeclaration)))
          continue;
        if (memberDeclaration && !declaration?.members.includes(memberDeclaration)) continue; // inherited
        const propertyType = checker.getTypeOfSymbol(property);
        const signatures = property.flags & ts.SymbolFlags.Method ? propertyType.getCallSignatures() : [];
        if (signatures.length > 0) {
          for (const signature of signatures) {
            members.push(
              `${prefix}${property.name}${checker.signatureToString(signature, undefined, FORMAT)};`,
            );
          }
        } else {
          const readonly =
            memberDeclaration && ts.getCombinedModifierFlags(memberDeclaration) & ts.ModifierFlags.Readonly
              ? "readonly "
              : "";
          const optional = property.flags & ts.SymbolFlags.Optional ? "?" : "";
          members.push(`${prefix}${readonly}${property.name}${optional}: ${typeText(propertyType)};`);
        }
      }
    };
    memberLines(checker.getDeclaredTypeOfSymbol(symbol), "");
    memberLines(statics, "static ");
    const abstract =
      declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Abstract ? "abstract " : "";
    const typeParameters = declaration?.typeParameters
      ? `<${declaration.typeParameters.map(print).join(", ")}>`
      : "";
    const body = members.map((member) => `    ${member}\n`).join("");
    lines.push(`${abstract}class ${name}${typeParameters}${heritage ? ` ${heritage}` : ""} {\n${body}}`);
  }
  if (symbol.flags & ts.SymbolFlags.Module && !(symbol.flags & ts.SymbolFlags.Enum)) {
    const names = checker.getExportsOfModule(symbol).map((member) => member.name);
    lines.push(`namespace ${name} { ${names.sort().join(", ")} }`);
  }
  return lines;
}

/** One TypeScript program over the sources of the entry points (by default every public one) and all they import. */
export function createSurfaceProgram(entryPoints = publicEntryPoints()) {
  return ts.createProgram({
    rootNames: entryPoints.map((entry) => entry.source),
    options: { ...compilerOptions(), noEmit: true },
  });
}

/**
 * The surface of every public entry point: `[{ pkg, dir, entries: [{ specifier, exports: [{ name, lines,
 * documented, file }] }] }]`, packages and entries in the order of publicEntryPoints(), exports by name.
 */
export function readSurface(entryPoints = publicEntryPoints(), program = createSurfaceProgram(entryPoints)) {
  const checker = program.getTypeChecker();
  const packages = new Map();
  for (const entry of entryPoints) {
    const sourceFile = program.getSourceFile(entry.source);
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    const exports = [];
    for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      exports.push({
        name: exported.name,
        lines: describe(checker, exported.name, symbol),
        documented: hasDocComment(symbol),
        file: declaration ? declaration.getSourceFile().fileName.slice(repoRoot.length) : "(unknown)",
        line: declaration
          ? declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1
          : 0,
      });
    }
    exports.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const pkg = packages.get(entry.pkg) ?? { pkg: entry.pkg, dir: entry.dir, entries: [] };
    pkg.entries.push({ specifier: specifier(entry), exports });
    packages.set(entry.pkg, pkg);
  }
  return [...packages.values()];
}
