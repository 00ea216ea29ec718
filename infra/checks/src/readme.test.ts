import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { configSchemas, processes } from "./config-schemas.js";

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
  const root = new URL("../../../", import.meta.url);
  const repository = readme.slice(
    readme.indexOf("## Repository"),
    readme.indexOf("\n## ", readme.indexOf("## Repository") + 1),
  );
  const { workspaces } = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
    workspaces: string[];
  };
  // packages/* and web/* each by name; services/* as `services/<name>`.
  const listed = workspaces.flatMap((pattern) => {
    if (pattern === "services/*") return ["services/<name>"];
    if (!pattern.endsWith("/*")) return [pattern];
    const folder = pattern.slice(0, -2);
    return readdirSync(new URL(`${folder}/`, root), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}`);
  });

  it.each(listed)("lists the workspace %s", (workspace) => {
    expect(repository).toMatch(new RegExp(`\\| \`${workspace.replace(/[<>]/g, "\\$&")}/?\``));
  });
});
