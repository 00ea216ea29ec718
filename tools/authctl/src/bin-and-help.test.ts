import { testBudgets } from "@auth/testing";
import { describe, expect, it } from "vitest";
import { repositoryRoot, run, runAuthctl } from "./run-authctl.testing.js";

/** authctl on its own: what it answers before it calls any service (the calls are in authctl.test.ts). */
describe("authctl's bin and help", { timeout: 5 * testBudgets.testMs }, () => {
  const authctl = (args: string[]) => runAuthctl(args, {});

  it("is the workspace's bin, so npx runs it from the checkout and never asks the registry", async () => {
    const { stdout } = await run("npx", ["--no", "--", "authctl", "--help"], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_offline: "true" },
    });
    expect(stdout).toMatch(/^Usage: authctl/);
  });

  it("explains every command with --help", async () => {
    // Each a process of its own that needs nothing of the others: run together.
    const helps: Promise<void>[] = [];
    for (const group of [
      "company",
      "apikey",
      "user",
      "backupcodes",
      "totp",
      "passkeys",
      "disclaimer",
      "oauth",
      "session",
      "events",
      "audit",
      "webhooks",
    ]) {
      helps.push(
        authctl([group, "--help"]).then(({ stdout, exitCode }) => {
          expect(exitCode, group).toBe(0);
          expect(stdout).toMatch(/Commands:/);
        }),
      );
    }
    helps.push(
      authctl(["user", "create", "--help"]).then(({ stdout }) => expect(stdout).toContain("--second-factor")),
      authctl(["oauth", "set", "--help"]).then(({ stdout }) =>
        expect(stdout).toContain("--trusts-provider-mfa"),
      ),
    );
    await Promise.all(helps);
  });
});
