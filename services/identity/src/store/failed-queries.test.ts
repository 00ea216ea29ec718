import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentitySchema, users } from "../schema.js";
import type { IdentityStore } from "./identity-store.js";
import { createTestCompany, newUserRow, openIdentityStore } from "./identity-store.testing.js";

const loginId = "ann.smith@example.com";

/** The log line of an error as the services write it ("call failed"). */
function logLineOf(error: unknown): string {
  const lines: string[] = [];
  createLogger("identity", "info", { write: (line: string) => lines.push(line) }).error(
    { err: error },
    "call failed",
  );
  return lines.join("");
}

const failureOf = (query: Promise<unknown>) =>
  query.then(
    () => {
      throw new Error("the query did not fail");
    },
    (error: unknown) => error,
  );

describe.each(databaseKinds())("a failed query of the identity store on $name, as logged", (kind) => {
  let database: OpenedDatabase<IdentitySchema>;
  let store: IdentityStore;
  let companyId: string;

  beforeAll(async () => {
    ({ database, store } = await openIdentityStore(kind));
    companyId = await createTestCompany(store, "Logs");
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });

  it("names no login ID PostgreSQL could not read (a NUL in it)", async () => {
    const error = await failureOf(store.findUserByLoginId(companyId, "email", `${loginId}\u0000`));
    expect(error).toBeInstanceOf(DrizzleQueryError);
    expect(String((error as Error).message)).toContain(loginId);
    const line = logLineOf(error);
    expect(line).not.toContain(loginId);
    expect(line).toContain("params: [redacted]");
  });

  it("names no login ID that is taken (a unique violation, whose detail has the value)", async () => {
    await database.db.insert(users).values(newUserRow(companyId, { email: loginId }));
    const error = await failureOf(
      database.db.insert(users).values(newUserRow(companyId, { email: loginId })),
    );
    expect(error).toBeInstanceOf(DrizzleQueryError);
    const line = logLineOf(error);
    expect(line).not.toContain(loginId);
    expect(line).toContain("duplicate key value");
  });

  it("names no value PostgreSQL quotes in its message (a login ID where a UUID belongs)", async () => {
    const error = await failureOf(store.findUser(companyId, loginId));
    const line = logLineOf(error);
    expect(line).not.toContain(loginId);
    expect(line).toContain("invalid input syntax for type uuid");
  });

  it("names no login ID when the driver's own error is logged", async () => {
    const error = await failureOf(store.findUser(companyId, loginId));
    const line = logLineOf((error as Error).cause);
    expect(line).not.toContain(loginId);
  });
});
