import { AuthError } from "@auth/errors";
import { freePort } from "@auth/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { runAuthctl } from "./run-authctl.testing.js";
import { notAnswered } from "./service-addresses.js";

/**
 * authctl's audit and webhooks commands as an operator types them, with no service to answer: what
 * they refuse, they refuse before calling anything (the addresses point at closed ports, and no
 * admin token or certificate is given, either of which a call would need first).
 */
describe("authctl audit and webhooks, before any call", () => {
  let closed: string;

  beforeAll(async () => {
    closed = `127.0.0.1:${await freePort()}`;
  });

  const authctl = (args: string[]) =>
    runAuthctl(args, { AUTH_IDENTITY_ADDR: closed, AUTH_AUDIT_ADDR: closed });

  it("explain their commands with --help", async () => {
    const audit = await authctl(["audit", "--help"]);
    expect(audit.exitCode).toBe(0);
    expect(audit.stdout).toMatch(/events \[options\]/);
    expect(audit.stdout).toMatch(/retention \[options\]/);
    const webhooks = await authctl(["webhooks", "--help"]);
    for (const command of ["create", "list", "update", "delete", "rotate", "deliveries", "replay"])
      expect(webhooks.stdout, command).toMatch(new RegExp(`\\b${command} \\[options\\]`));
    const events = await authctl(["audit", "events", "--help"]);
    for (const option of ["--company", "--user", "--type", "--from", "--to", "--limit", "--page-token"])
      expect(events.stdout, option).toContain(option);
    expect((await authctl(["--help"])).stdout).toContain("--audit <host:port>");
  });

  it.each([
    [["audit", "events", "--company", "acme", "--from", "yesterday"], /^--from: an RFC 3339 time/],
    [["audit", "events", "--company", "acme", "--limit", "5000"], /^--limit: a whole number from 1 to 1000$/],
    [["audit", "retention", "--company", "acme", "--days", "0"], /^--days: a whole number from 1 to 3650$/],
    [
      ["webhooks", "deliveries", "--company", "acme", "--webhook", "w-1", "--state", "failed"],
      /^--state: pending, succeeded or dead$/,
    ],
    [
      ["webhooks", "update", "--company", "acme", "--webhook", "w-1", "--enable", "--disable"],
      /^--enable, --disable: one or the other$/,
    ],
    [
      ["webhooks", "rotate", "--company", "acme", "--webhook", "w-1", "--overlap-seconds", "604801"],
      /^--overlap-seconds: a whole number from 1 to 604800$/,
    ],
  ])("refuse %j in one line naming the option, exit code 1", async (args, message) => {
    const { stdout, stderr, exitCode } = await authctl(args);
    expect(exitCode).toBe(1);
    expect(stdout).toBe("");
    const line = stderr.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line.replace(/^authctl: request\.validation\.failed: /, "")).toMatch(message);
  });

  it.each([
    [["audit", "events"], "--company <code>"],
    [["webhooks", "create", "--company", "acme", "--url", "https://hooks.acme.example"], "--type <type>"],
    [["webhooks", "delete", "--company", "acme"], "--webhook <id>"],
  ])("refuse %j without its required option, naming it", async (args, option) => {
    const { stderr, exitCode } = await authctl(args);
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`required option '${option}' not specified`);
  });
});

describe("authctl's line for an audit service that gave no answer", () => {
  it("names the audit service, its address and AUTH_AUDIT_ADDR or --audit", () => {
    // What grpc-kit makes of a refused connection: service.unavailable caused by UNAVAILABLE (14).
    const unreachable = new AuthError("service.unavailable", { cause: { code: 14 } });
    const line = (source: string) =>
      (notAnswered(unreachable, "audit", "10.0.0.9:50056", source, 10_000) as Error).message;
    expect(line("default")).toBe(
      "cannot reach audit at 10.0.0.9:50056 (the default address; set AUTH_AUDIT_ADDR or --audit)",
    );
    expect(line("env")).toBe("cannot reach audit at 10.0.0.9:50056 (the address of AUTH_AUDIT_ADDR)");
  });
});
