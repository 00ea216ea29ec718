import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The docs prove their claims by naming tests, as `file › describe › … › test` (the names vitest
 * reports). Each citation must still name a test file that has each of those titles, so that a
 * renamed or deleted test cannot leave a claim proved by nothing.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const docs = join(root, "docs");

const citations = readdirSync(docs)
  .filter((file) => file.endsWith(".md"))
  .flatMap((file) =>
    [...readFileSync(join(docs, file), "utf8").matchAll(/`([\w./-]+\.test\.ts) › ([^`]+)`/g)].map(
      ([, path = "", titles = ""]) => ({ doc: file, path, titles: titles.split(" › ") }),
    ),
  );

/** The template literals of a test file with interpolations, each as a pattern of the titles it makes. */
function templates(source: string): RegExp[] {
  return [...source.matchAll(/`([^`]*\$\{[^`]*)`/g)].map(
    ([, template = ""]) =>
      new RegExp(
        `^${template
          .split(/\$\{[^}]*\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join(".+")}$`,
      ),
  );
}

/** A title as a test file writes it: in a string literal, whose quotes and escapes may differ. */
const written = (source: string, title: string) =>
  source.includes(title) ||
  source.includes(title.replaceAll('"', '\\"')) ||
  source.includes(title.replaceAll("'", "\\'")) ||
  templates(source).some((pattern) => pattern.test(title));

describe("the docs' citations of tests", () => {
  it("are there to check", () => {
    expect(citations.length).toBeGreaterThan(100);
  });

  it.each(
    citations.map((citation) => [
      `${citation.doc}: ${citation.path} › ${citation.titles.join(" › ")}`,
      citation,
    ]),
  )("%s names a test that exists", (_, { path, titles }) => {
    const file = join(root, path);
    expect(existsSync(file), `${path} exists`).toBe(true);
    const source = readFileSync(file, "utf8");
    expect(titles.filter((title) => !written(source, title))).toEqual([]);
  });
});
