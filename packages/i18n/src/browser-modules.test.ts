import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { browserImports, browserModuleFiles } from "./browser-modules.js";
import { languages } from "./languages.js";

/** What a module imports at run time (no `import type`): [specifier]. */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, "utf8").matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s*"([^"]+)"/gm)].map(
    ([, specifier]) => specifier as string,
  );

const isRelative = (specifier: string) => specifier.startsWith(".");

/** Every module a browser loads from these entry modules of this package: its own files, and the packages they name. */
function loadedFrom(entries: string[]): { own: Set<string>; packages: Set<string> } {
  const own = new Set<string>();
  const packages = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (own.has(file)) continue;
    own.add(file);
    for (const specifier of importsOf(file))
      if (isRelative(specifier)) pending.push(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
  }
  return { own, packages };
}

describe("the modules the reference page loads in the browser (docs/decisions.md, “Languages”)", () => {
  const { directory, imports } = browserModuleFiles();
  const entries = [
    "translator.ts",
    "choose-language.ts",
    ...languages.map((language) => `catalogues/${language}/index.ts`),
  ].map((entry) => join(directory, entry));

  it("import by name the packages of browserImports and no other (no module of Node)", () => {
    const { packages } = loadedFrom(entries);
    const named = new Set(browserImports);
    for (const name of Object.values(imports).flatMap(importsOf)) packages.add(name);
    expect([...packages].sort()).toEqual([...named].sort());
  });

  it("find each of those packages as one ES module file, which imports nothing by path", () => {
    for (const [name, file] of Object.entries(imports)) {
      expect(file, name).toMatch(/\.js$/);
      expect(importsOf(file).filter(isRelative), name).toEqual([]);
    }
  });
});
