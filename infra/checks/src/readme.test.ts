import { readFileSync } from "node:fs";
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
