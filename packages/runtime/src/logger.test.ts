import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";

function logged(write: (logger: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  write(createLogger("test", "info", { write: (line: string) => lines.push(line) }));
  return lines.join("");
}

describe("the logger", () => {
  it("writes no secret field, at the top or one level down", () => {
    const line = logged((logger) =>
      logger.info({ password: "hunter2", request: { otp: "123456", sessionToken: "t0ken" } }, "x"),
    );
    for (const secret of ["hunter2", "123456", "t0ken"]) expect(line).not.toContain(secret);
  });

  it("writes a failed query without its parameters, which hold login IDs", () => {
    const failed = Object.assign(
      new Error('Failed query: select "id" from "users" where "login_name" = $1\nparams: ann@example.com'),
      { params: ["ann@example.com"], query: 'select "id" from "users" where "login_name" = $1' },
    );
    failed.cause = Object.assign(new Error("Query read timeout\nparams: ann@example.com"), { params: ["x"] });
    const line = logged((logger) => logger.error({ err: failed }, "call failed"));
    expect(line).not.toContain("ann@example.com");
    expect(line).toContain('select \\"id\\" from \\"users\\"');
    expect(line).toContain("Query read timeout");
  });
});
