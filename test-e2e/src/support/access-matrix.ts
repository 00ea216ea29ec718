import { readFileSync } from "node:fs";

/**
 * docs/security.md's matrix of who may call what ("Trust between the services"): for each method,
 * as `Service/Method`, the certificates its row marks ✓ (`consumer` for every consumer product).
 */
export function documentedAccess(): Map<string, Set<string>> {
  const text = readFileSync(new URL("../../../docs/security.md", import.meta.url), "utf8");
  const header = /^\| method \|(.+)\|$/m.exec(text)?.[1];
  if (!header) throw new Error("docs/security.md has no matrix of who may call what");
  const holders = header.split("|").map((cell) => cell.trim());
  const matrix = new Map<string, Set<string>>();
  for (const [, method = "", cells = ""] of text.matchAll(/^\| `(\w+\/\w+)` \|(.+)\|$/gm)) {
    if (matrix.has(method)) throw new Error(`${method} is twice in the matrix`);
    const marks = cells.split("|").map((cell) => cell.trim());
    matrix.set(method, new Set(holders.filter((_, index) => marks[index] === "✓")));
  }
  return matrix;
}

/** `Service/Method` of a gRPC path (`/auth.identity.v1.IdentityService/CreateCompany`). */
export const methodNameOf = (path: string): string => path.split(".").at(-1) ?? path;
