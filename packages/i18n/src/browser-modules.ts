import { fileURLToPath } from "node:url";

/**
 * The packages that the modules of the reference page (translator.js, choose-language.js,
 * catalogues/<language>/index.js) import by name: FormatJS's, each one ES module file, which an
 * import map names for the browser (docs/decisions.md, "Languages").
 */
export const browserImports = [
  "intl-messageformat",
  "@formatjs/icu-messageformat-parser",
  "@formatjs/icu-skeleton-parser",
  "@formatjs/fast-memoize",
  "@formatjs/intl-localematcher",
] as const;

/** Where a server finds what the browser loads: this package's modules, and the file of each of browserImports. */
export interface BrowserModuleFiles {
  directory: string;
  imports: Record<(typeof browserImports)[number], string>;
}

/** The files, as this package resolves its own dependencies. */
export function browserModuleFiles(): BrowserModuleFiles {
  return {
    directory: fileURLToPath(new URL(".", import.meta.url)),
    imports: Object.fromEntries(
      browserImports.map((name) => [name, fileURLToPath(import.meta.resolve(name))]),
    ) as BrowserModuleFiles["imports"],
  };
}
