import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type DocPlaces, type DocReference, placesOf, referencesIn } from "./doc-references.js";

/**
 * Code and docs cite the docs' sections (docs/decisions.md, "Tooling"): each citation and each link
 * must still name a heading or a label of a doc that exists, so that a renamed heading cannot leave
 * a rule explained by nothing.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
/** This file: its examples cite sections that do not exist, on purpose. */
const self = "packages/testing/src/doc-headings.test.ts";

const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((path) => path !== "" && path !== self && existsSync(join(root, path)));

const references = tracked.flatMap((path) => {
  const text = readFileSync(join(root, path), "utf8");
  return text.includes("\u0000") ? [] : referencesIn(path, text).map((reference) => ({ path, ...reference }));
});

const places = new Map<string, DocPlaces | undefined>();
function placesOfDoc(doc: string): DocPlaces | undefined {
  if (!places.has(doc)) {
    const file = join(root, doc);
    places.set(doc, existsSync(file) ? placesOf(readFileSync(file, "utf8")) : undefined);
  }
  return places.get(doc);
}

const where = ({ path, line }: { path: string; line: number }) => `${path}:${line}`;

describe("reading references to the docs", () => {
  it("reads a citation wrapped over the lines of a comment as one", () => {
    const source = ['// the budget (docs/security.md,\n// "Guesses per hour at\n// one user")'].join("\n");
    expect(referencesIn("a.ts", source)).toEqual([
      { line: 1, kind: "section", doc: "docs/security.md", section: "Guesses per hour at one user" },
    ]);
  });

  it("reads sections in straight, escaped and curly quotes, and bare in a parenthesis or a string", () => {
    const source = [
      'x("docs/a.md, \\"One\\"") // docs/b.md, "Two"',
      'it("… (docs/c.md, “Three”) and (docs/d.md, Four)")',
      'runbook: "docs/e.md, Five"',
    ].join("\n");
    expect(
      referencesIn("a.ts", source).map((reference) => reference.kind === "section" && reference.section),
    ).toEqual(["One", "Two", "Three", "Four", "Five"]);
  });

  it("reads a citation with neither quotes nor a parenthesis around its section as unreadable", () => {
    expect(referencesIn("a.ts", "// docs/a.md, docs/b.md and more")).toMatchObject([
      { line: 1, kind: "unreadable" },
    ]);
  });

  it("reads, in markdown only, a doc beside it by its name and links to an anchor", () => {
    const markdown =
      'As (decisions.md, "Login") says, [see](security.md#passwords), [here](#brand), [all](api.md).';
    expect(referencesIn("docs/x.md", markdown)).toEqual([
      { line: 1, kind: "section", doc: "docs/decisions.md", section: "Login" },
      { line: 1, kind: "anchor", doc: "docs/security.md", anchor: "passwords" },
      { line: 1, kind: "anchor", doc: "docs/x.md", anchor: "brand" },
      { line: 1, kind: "anchor", doc: "docs/api.md", anchor: "" },
    ]);
    expect(referencesIn("a.ts", markdown)).toEqual([]);
  });

  it("knows a doc's headings, its labels and its headings' anchors as GitHub makes them", () => {
    const doc = placesOf(
      "# Doc\n## Figures (2 cores, one machine)\n**Bursts.** Each…\n- **Probes**: …\n## Figures (2 cores, one machine)\n",
    );
    expect(doc.headings).toEqual(new Set(["Doc", "Figures (2 cores, one machine)"]));
    expect(doc.labels).toEqual(new Set(["Bursts", "Probes"]));
    expect(doc.anchors).toEqual(
      new Set(["doc", "figures-2-cores-one-machine", "figures-2-cores-one-machine-1"]),
    );
  });
});

describe("the repository's references to the docs", () => {
  const cited = references.filter(
    (reference): reference is typeof reference & DocReference & { doc: string } =>
      reference.kind !== "unreadable",
  );

  it("are there to check", () => {
    expect(cited.length).toBeGreaterThan(700);
  });

  it("are each written as a citation: the doc, a comma and the section in quotes", () => {
    expect(references.filter((reference) => reference.kind === "unreadable").map(where)).toEqual([]);
  });

  it("each name a doc that exists", () => {
    expect(
      cited.filter(({ doc }) => placesOfDoc(doc) === undefined).map((r) => `${where(r)}: ${r.doc}`),
    ).toEqual([]);
  });

  it("each cite a heading or a label of their doc", () => {
    const dead = references.flatMap((reference) => {
      if (reference.kind !== "section") return [];
      const doc = placesOfDoc(reference.doc);
      if (doc === undefined || doc.headings.has(reference.section) || doc.labels.has(reference.section))
        return [];
      return [`${where(reference)}: ${reference.doc}, "${reference.section}"`];
    });
    expect(dead).toEqual([]);
  });

  it("each link to an anchor of a heading of their doc", () => {
    const dead = references.flatMap((reference) => {
      if (reference.kind !== "anchor" || reference.anchor === "") return [];
      const doc = placesOfDoc(reference.doc);
      if (doc === undefined || doc.anchors.has(reference.anchor)) return [];
      return [`${where(reference)}: ${reference.doc}#${reference.anchor}`];
    });
    expect(dead).toEqual([]);
  });
});
