import { fileURLToPath } from "node:url";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policyInput, withPolicyDefaults } from "../companies.js";
import { type IdentitySchema, schema, users } from "../schema.js";
import { IdentityStore, type NewUser } from "./identity-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
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
  const user = (overrides: Partial<NewUser>): NewUser => ({
    companyId,
    role: "customer",
    status: "active",
    profileMnemocode: `P-${Math.random()}`,
    loginName: null,
    phone: null,
    email: null,
    passwordHash: null,
    secondFactorRequired: false,
    passwordChangeRequired: false,
    ...overrides,
  });

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
    store = new IdentityStore(database.db);
    const policy = withPolicyDefaults(policyInput.parse({}));
    companyId = (await store.createCompany({ code: `logs${Date.now()}`, name: "Logs", policy })).id;
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
    await database.db.insert(users).values(user({ email: loginId }));
    const error = await failureOf(database.db.insert(users).values(user({ email: loginId })));
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
