import { execFile } from "node:child_process";
import { createRequire, type ResolveFnOutput } from "node:module";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { resolveDrizzleModules } from "./drizzle-resolution.js";

const drizzleEntry = pathToFileURL(createRequire(import.meta.url).resolve("drizzle-orm")).href;
const nodeAnswer: ResolveFnOutput = { url: "node:answered", shortCircuit: true };
const resolve = (specifier: string, parentURL: string) => {
  const asked: string[] = [];
  const answer = resolveDrizzleModules(
    specifier,
    { parentURL, conditions: [], importAttributes: {} },
    (next) => {
      asked.push(next);
      return nodeAnswer;
    },
  );
  return { answer, askedNode: asked.length > 0 };
};

describe(`drizzle-orm's modules resolved without its package.json (docs/performance.md, "drizzle-orm's modules")`, () => {
  it("resolves a module's relative import of a file of drizzle-orm to that file, as ESM", () => {
    const { answer, askedNode } = resolve("./sql/sql.js", drizzleEntry);
    expect(askedNode).toBe(false);
    expect(answer).toEqual({
      url: new URL("./sql/sql.js", drizzleEntry).href,
      format: "module",
      shortCircuit: true,
    });
  });

  it.each([
    ["a file drizzle-orm does not have", "./no-such-module.js", drizzleEntry],
    ["a path out of drizzle-orm's folder", "../pg/lib/index.js", drizzleEntry],
    ["a package's name", "pg", drizzleEntry],
    ["an import from outside drizzle-orm", "./sql/sql.js", import.meta.url],
  ])("leaves %s to Node", (_, specifier, parentURL) => {
    expect(resolve(specifier, parentURL)).toEqual({ answer: nodeAnswer, askedNode: true });
  });

  it("loads drizzle-orm as ESM with Node resolving none of its relative imports", async () => {
    // Registered first, this hook runs after the module's: it sees what Node is asked to resolve.
    const script = `
      import { registerHooks } from "node:module";
      const resolvedByNode = [];
      const loaded = [];
      registerHooks({
        resolve(specifier, context, next) {
          const answer = next(specifier, context);
          if (answer.url.includes("/drizzle-orm/")) resolvedByNode.push(specifier);
          return answer;
        },
        load(url, context, next) {
          const answer = next(url, context);
          if (url.includes("/drizzle-orm/")) loaded.push(answer.format);
          return answer;
        },
      });
      await import("@auth/pg/drizzle-resolution");
      const { sql } = await import("drizzle-orm");
      await import("drizzle-orm/pg-core");
      await import("drizzle-orm/node-postgres");
      console.log(JSON.stringify({ resolvedByNode, loaded, sql: typeof sql }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: new URL(".", import.meta.url),
    });
    const { resolvedByNode, loaded, sql } = JSON.parse(stdout);
    expect(sql).toBe("function");
    expect(loaded.length).toBeGreaterThan(100);
    expect(new Set(loaded)).toEqual(new Set(["module"]));
    expect(resolvedByNode).toEqual(["drizzle-orm", "drizzle-orm/pg-core", "drizzle-orm/node-postgres"]);
  });
});
