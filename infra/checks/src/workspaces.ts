import { existsSync, readdirSync, readFileSync } from "node:fs";

const root = new URL("../../../", import.meta.url);

/** The root package.json's workspaces, as written there: folders, or `<folder>/*`. */
export const workspacePatterns = (
  JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { workspaces: string[] }
).workspaces;

/** The folders a workspace pattern names, as npm reads it: each with a package.json. */
export function workspaceFolders(pattern: string): string[] {
  const folders = pattern.endsWith("/*")
    ? readdirSync(new URL(`${pattern.slice(0, -2)}/`, root), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
    : [pattern];
  return folders.filter((folder) => existsSync(new URL(`${folder}/package.json`, root)));
}
