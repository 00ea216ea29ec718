import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url).pathname;

/** The product's TypeScript sources: what runs in the processes, not tests or generated code. */
function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist", "gen"].includes(entry.name) ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|testing\.ts$/.test(entry.name) ? [path] : [];
  });
}

const product = ["services", "gateway/src", "packages"].flatMap((directory) =>
  sources(join(root, directory)),
);

const secret = String.raw`[\w.]*(?:token|secret|password|otp|answer|digest|hash|apikey|backupcode)\b(?:\[[^\]]*\])?`;
const equals = String.raw`[!=]==?(?!=)`;
const absent = String.raw`(?!\s|"|'|undefined|null)`;
/** `a === b` where either side is named like a secret, leaving out checks for emptiness and absence. */
const comparison = new RegExp(
  String.raw`${secret}\s*${equals}\s*${absent}|[\w.)\]]\s*${equals}\s*${secret}`,
  "i",
);
/** Names that look like secrets and are not. */
const notSecrets = [/\btakesToken\b/];
/** Session states are named for the secret they ask for (SessionState.CHECKPASSWORD): no secret. */
const withoutStates = (line: string) => line.replace(/\bSessionState\.\w+/g, "state");

describe("secrets are compared in constant time", () => {
  it("finds the product's sources", () => {
    expect(product.length).toBeGreaterThan(50);
  });

  it("no source compares a secret with == or ===", () => {
    const offending = product.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ line: line.trim(), at: `${relative(root, file)}:${index + 1}` }))
        .filter(
          ({ line }) =>
            !line.startsWith("//") &&
            !line.startsWith("*") &&
            comparison.test(withoutStates(line)) &&
            !notSecrets.some((name) => name.test(line)),
        )
        .map(({ line, at }) => `${at}: ${line}`),
    );
    expect(offending).toEqual([]);
  });

  it.each([
    ["session and link tokens", "packages/kv/src/keyed-token.ts"],
    ["OTPs", "services/otp/src/otp-codes.ts"],
    ["the admin token", "packages/grpc-kit/src/admin.ts"],
  ])("compares %s with crypto.timingSafeEqual", (_, file) => {
    expect(readFileSync(join(root, file), "utf8")).toMatch(/timingSafeEqual\(/);
  });
});
