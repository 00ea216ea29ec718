import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { configSchemas, processes } from "./config-schemas.js";
import { workspaceFolders, workspacePatterns } from "./workspaces.js";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const configuration = readme.slice(readme.indexOf("## Configuration"));

describe("the README's configuration table", () => {
  it.each(processes)("names every variable %s reads", (name) => {
    const shape = (configSchemas[name] as unknown as z.ZodObject).shape;
    for (const variable of Object.keys(shape))
      expect(configuration, `${name}: ${variable}`).toContain(`\`${variable}\``);
  });
});

describe("the README's repository table", () => {
  const repository = readme.slice(
    readme.indexOf("## Repository"),
    readme.indexOf("\n## ", readme.indexOf("## Repository") + 1),
  );
  // packages/* and web/* each by name; services/* as `services/<name>`.
  const listed = workspacePatterns.flatMap((pattern) =>
    pattern === "services/*" ? ["services/<name>"] : workspaceFolders(pattern),
  );

  it.each(listed)("lists the workspace %s", (workspace) => {
    expect(repository).toMatch(new RegExp(`\\| \`${workspace.replace(/[<>]/g, "\\$&")}/?\``));
  });
});
