import { dirname, posix } from "node:path";

/**
 * What a citation may name in a doc: a heading, or a label (the bold lead-in of a paragraph or of a
 * list item, as `**Bursts.**`), and what a link may name: a heading's anchor, as GitHub makes it
 * (docs/decisions.md, "Tooling").
 */
export interface DocPlaces {
  headings: Set<string>;
  labels: Set<string>;
  anchors: Set<string>;
}

/** A place in a file that names a section of a doc, or that starts like a citation and names none. */
export type DocReference = { line: number } & (
  | { kind: "section"; doc: string; section: string }
  | { kind: "anchor"; doc: string; anchor: string } // "" links the whole doc
  | { kind: "unreadable"; text: string }
);

const spaces = (text: string) => text.replace(/\s+/g, " ").trim();

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

export function placesOf(markdown: string): DocPlaces {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map(([, text = ""]) => spaces(text));
  const labels = [...markdown.matchAll(/^\s*(?:[-*+]\s+|\d+\.\s+)?\*\*([^*]+)\*\*/gm)].map(([, text = ""]) =>
    spaces(text).replace(/[.:,]$/, ""),
  );
  const seen = new Map<string, number>();
  const anchors = headings.map((heading) => {
    const anchor = anchorOf(heading);
    const times = seen.get(anchor) ?? 0;
    seen.set(anchor, times + 1);
    return times === 0 ? anchor : `${anchor}-${times}`;
  });
  return { headings: new Set(headings), labels: new Set(labels), anchors: new Set(anchors) };
}

/**
 * The file's lines without their comment markers, joined by spaces, so that a citation wrapped
 * over the lines of a comment reads as one; with where each line starts in the joined text.
 */
function unwrapped(text: string): { joined: string; starts: number[] } {
  const starts: number[] = [];
  let joined = "";
  for (const line of text.split("\n")) {
    starts.push(joined.length);
    joined += `${line.replace(/^\s*(?:\/\/+|\/\*+|\*(?!\*)|#+|--|>|<!--)?\s*/, "").trimEnd()} `;
  }
  return { joined, starts };
}

const lineAt = (starts: number[], offset: number) => starts.findLastIndex((start) => start <= offset) + 1;

/**
 * A citation's section, after `<doc>, `: in quotes (straight, escaped in a string literal, or curly);
 * or bare, when the whole parenthesis or string is the citation, as in a test's title
 * `(docs/decisions.md, TOTP)` or an alert's `runbook: "docs/operations.md, Failures"`.
 */
function sectionAfter(joined: string, start: number, opener: string | undefined): string | undefined {
  const rest = joined.slice(start);
  const quoted = /^\\?"([^"\\]+)\\?"/.exec(rest) ?? /^“([^”]+)”/.exec(rest);
  if (quoted) return quoted[1];
  if (opener === "(") return /^([^()"“”]+)\)/.exec(rest)?.[1];
  if (opener === '"') return /^([^"]+)"/.exec(rest)?.[1];
  return undefined;
}

/**
 * Every reference to a section of a doc in one file (`path` from the repository's root):
 * `docs/<file>.md, "<heading or label>"` anywhere; in markdown also `<file>.md, "<…>"` of a file
 * beside it, and links `[…](<file>.md)`, `[…](<file>.md#<anchor>)`, `[…](#<anchor>)`.
 */
export function referencesIn(path: string, text: string): DocReference[] {
  const { joined, starts } = unwrapped(text);
  const markdown = path.endsWith(".md");
  const here = dirname(path);
  const references: DocReference[] = [];
  const citation = markdown
    ? /(?<![\w./-])((?:docs\/)?[\w-]+\.md),\s/g
    : /(?<![\w./-])(docs\/[\w-]+\.md),\s/g;
  for (const match of joined.matchAll(citation)) {
    const [whole, cited = ""] = match;
    const line = lineAt(starts, match.index);
    const doc = cited.startsWith("docs/") ? cited : posix.join(here, cited);
    const section = sectionAfter(joined, match.index + whole.length, joined[match.index - 1]);
    references.push(
      section === undefined
        ? { line, kind: "unreadable", text: joined.slice(match.index, match.index + 60) }
        : { line, kind: "section", doc, section: spaces(section) },
    );
  }
  if (markdown) {
    for (const match of joined.matchAll(/\]\((?![a-z]+:)([\w./-]*\.md)?(?:#([^)\s]+))?\)/g)) {
      const [, linked, anchor = ""] = match;
      if (linked === undefined && anchor === "") continue;
      const doc = linked === undefined ? path : posix.normalize(posix.join(here, linked));
      references.push({ line: lineAt(starts, match.index), kind: "anchor", doc, anchor });
    }
  }
  return references;
}
