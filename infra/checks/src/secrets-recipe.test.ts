import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { composeEnvironment, stageEnvironment } from "./compose-environment.js";
import type { ComposeService } from "./compose-volumes.js";
import { configProblems, processes, withTestCertificates } from "./config-schemas.js";

const composeText = readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8");
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };

/** The shell lines of compose.yaml's header that write infra/.env, as an operator copies them. */
function headerRecipe(): string {
  const lines = composeText.split("\n");
  const first = lines.findIndex((line) => line.endsWith("The secrets, in infra/.env:")) + 1;
  const last = lines.findIndex((line, index) => index >= first && line.endsWith("> infra/.env"));
  if (first === 0 || last < 0) throw new Error("compose.yaml's header has no recipe that writes infra/.env");
  return lines
    .slice(first, last + 1)
    .map((line) => line.replace(/^# {3}/, ""))
    .join("\n");
}

/**
 * Enough runs to meet what a run may or may not make: a 32-byte key in base64 holds a + or a / in
 * about 3 runs in 4, so the two keys of 40 runs hold neither with a chance under 10^-40 (each run
 * spawns about 14 openssl processes: 200 runs took about 50 s on a loaded machine).
 */
const runs = 40;
/** The senders, which the operator chooses (the header says so after the recipe). */
const senders = { MAIL_SENDER: "dev", SMS_SENDER: "dev" };

describe("the secrets recipe in infra/compose.yaml's header", () => {
  let workDir: string;
  let made: Array<Record<string, string>>;

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "secrets-recipe-"));
    const script = join(workDir, "recipe.sh");
    writeFileSync(script, `${headerRecipe()}\n`);
    // Each run in a folder of its own, as from a checkout's root (the recipe writes infra/.env).
    execFileSync(
      "bash",
      [
        "-c",
        `for i in $(seq ${runs}); do mkdir -p "run$i/infra" && (cd "run$i" && . ../recipe.sh) || exit 1; done`,
      ],
      { cwd: workDir },
    );
    made = Array.from({ length: runs }, (_, index) =>
      Object.fromEntries(
        readFileSync(join(workDir, `run${index + 1}`, "infra", ".env"), "utf8")
          .trim()
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      ),
    );
  }, testBudgets.hookMs);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it.each(processes)(
    `makes, ${runs} runs in ${runs}, secrets that %s's start-up check accepts, and every one compose asks of it`,
    async (name) => {
      const service = compose.services[name];
      // Each problem, with the number of runs it was found in.
      const problems = new Map<string, number>();
      for (const secrets of made) {
        const environment = composeEnvironment(service, { ...secrets, ...senders });
        const checked = await withTestCertificates(
          { ...stageEnvironment(name), ...environment },
          "/etc/auth/tls",
        );
        for (const problem of configProblems(name, checked))
          problems.set(problem, (problems.get(problem) ?? 0) + 1);
      }
      expect(Object.fromEntries(problems)).toEqual({});
    },
    testBudgets.testMs,
  );

  it(`makes ADMIN_TOKEN_SHA256 the SHA-256 of ADMIN_TOKEN, ${runs} runs in ${runs}`, () => {
    const mismatched = made.filter(
      (secrets) =>
        createHash("sha256")
          .update(secrets.ADMIN_TOKEN ?? "")
          .digest("hex") !== secrets.ADMIN_TOKEN_SHA256,
    );
    expect(mismatched).toEqual([]);
  });

  it(`makes a different value for each secret and each run`, () => {
    const values = made.flatMap((secrets) =>
      Object.entries(secrets)
        .filter(([key]) => key !== "ADMIN_TOKEN_SHA256")
        .map(([, value]) => value),
    );
    expect(new Set(values).size).toBe(values.length);
  });
});
