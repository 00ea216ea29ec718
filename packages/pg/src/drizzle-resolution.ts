import { existsSync } from "node:fs";
import { type ResolveHookSync, registerHooks } from "node:module";

/**
 * Imported first by a process that loads drizzle-orm, before its other modules resolve.
 *
 * drizzle-orm's package.json lists each of its files in "exports" (180 KB), and Node 24 parses that
 * list again for every one of its modules it loads as ESM: to learn a file's format, the loader
 * reads the package's scope and copies its fields, which runs the lazy parse of "exports". Its 106
 * modules, resolved 430 times, cost about 0.4 s of CPU at each start of identity, disclaimer and
 * audit, most of it that parse and its garbage (docs/performance.md, "drizzle-orm's modules").
 * drizzle's modules import one another by relative paths to `.js` files of its own package, whose
 * "type" is "module": those are resolved here, to the same URLs and format, without the lookup.
 * Anything else, a missing file included, goes on to Node's resolution and its errors.
 */
const drizzleFolder = "/node_modules/drizzle-orm/";

export const resolveDrizzleModules: ResolveHookSync = (specifier, context, nextResolve) => {
  if (context.parentURL?.includes(drizzleFolder) && specifier.startsWith(".") && specifier.endsWith(".js")) {
    const url = new URL(specifier, context.parentURL);
    if (url.pathname.includes(drizzleFolder) && existsSync(url)) {
      return { url: url.href, format: "module", shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
};

registerHooks({ resolve: resolveDrizzleModules });
