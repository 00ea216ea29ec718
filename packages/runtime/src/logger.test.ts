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

  it("writes no login ID, e-mail address or phone number, at the top or one level down", () => {
    const line = logged((logger) =>
      logger.info(
        { loginId: "ann", request: { login_id: "bob", email: "cy@example.com", phone: "+12025550143" } },
        "x",
      ),
    );
    for (const loginId of ["ann", "bob", "cy@example.com", "+12025550143"])
      expect(line).not.toContain(loginId);
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

/** Drizzle's DrizzleQueryError (drizzle-orm/errors), as it builds its message. */
class DrizzleQueryError extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
    cause?: Error,
  ) {
    super(`Failed query: ${query}\nparams: ${params}`, { cause });
  }
}

/** An error of PostgreSQL as pg and PGlite throw it: SQLSTATE, detail, where, and the query's values. */
const postgresError = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), { severity: "ERROR", ...fields });

describe("a failed query in a log line", () => {
  const query = 'select "id" from "users" where "company_id" = $1 and "email" = $2';

  it("has no parameter, even one with a line break, in the message, the stack or the cause", () => {
    const values = ["0b6c…", "x\nann@example.com"];
    const failed = new DrizzleQueryError(
      query,
      values,
      postgresError('invalid byte sequence for encoding "UTF8": 0x00', {
        code: "22021",
        where: "unnamed portal parameter $2",
        params: values,
      }),
    );
    const line = logged((logger) => logger.error({ err: failed }, "call failed"));
    expect(line).not.toContain("ann@example.com");
    expect(line).toContain("params: [redacted]");
    expect(line).toContain("company_id");
    expect(line).toContain("invalid byte sequence");
  });

  it("has no PostgreSQL detail or where, which name the values, when the driver's error is logged itself", () => {
    const failed = postgresError('duplicate key value violates unique constraint "users_email"', {
      code: "23505",
      detail: "Key (company_id, email)=(c, ann@example.com) already exists.",
      where: "unnamed portal parameter $2 = 'ann@example.com'",
    });
    const line = logged((logger) => logger.error({ err: failed }, "call failed"));
    expect(line).not.toContain("ann@example.com");
    expect(line).toContain("duplicate key value");
    expect(line).toContain("23505");
  });

  it("has no value that PostgreSQL quotes in its own message", () => {
    const failed = new DrizzleQueryError(
      "select $1::uuid",
      ["ann@example.com"],
      postgresError('invalid input syntax for type uuid: "ann@example.com"', {
        code: "22P02",
        params: ["ann@example.com"],
      }),
    );
    const line = logged((logger) => logger.error({ err: failed }, "call failed"));
    expect(line).not.toContain("ann@example.com");
    expect(line).toContain("invalid input syntax for type uuid");
  });

  it("has no parameter when the failed query is the cause of another error", () => {
    const failed = new DrizzleQueryError(query, ["c", "ann@example.com"], new Error("Connection terminated"));
    const wrapped = Object.assign(new Error("database unavailable", { cause: failed }), {
      code: "service.unavailable",
    });
    const line = logged((logger) => logger.warn({ err: wrapped }, "call refused"));
    expect(line).not.toContain("ann@example.com");
    expect(line).toContain("database unavailable");
    expect(line).toContain("Connection terminated");
  });

  it("is written even when the error refers to itself", () => {
    const failed = new DrizzleQueryError(query, ["c", "ann@example.com"]);
    Object.assign(failed, { self: failed, context: { failed } });
    const line = logged((logger) => logger.error({ err: failed }, "call failed"));
    expect(line).toContain("call failed");
    expect(line).not.toContain("ann@example.com");
  });
});
