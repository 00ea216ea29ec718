import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import type { DatabaseKind } from "@auth/pg/testing";
import { policyInput, withPolicyDefaults } from "../companies.js";
import { type IdentitySchema, schema } from "../schema.js";
import { IdentityStore, type NewUser } from "./identity-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** The store's tests' database of one kind, migrated, with its store. */
export async function openIdentityStore(
  kind: DatabaseKind,
): Promise<{ database: OpenedDatabase<IdentitySchema>; store: IdentityStore }> {
  const database = await kind.open({ schema, migrationsFolder });
  return { database, store: new IdentityStore(database.db) };
}

/** A company with the default policy, for the tests of one file. */
export async function createTestCompany(store: IdentityStore, name: string): Promise<string> {
  const policy = withPolicyDefaults(policyInput.parse({}));
  return (await store.createCompany({ code: `t${randomUUID().slice(0, 12)}`, name, policy }, systemOrigin))
    .id;
}

/** An active customer without login IDs or password, unless the test says otherwise. */
export const newUserRow = (companyId: string, overrides: Partial<NewUser> = {}): NewUser => ({
  companyId,
  role: "customer",
  status: "active",
  profileMnemocode: `P-${randomUUID()}`,
  loginName: null,
  phone: null,
  email: null,
  passwordHash: null,
  secondFactorRequired: false,
  passwordChangeRequired: false,
  ...overrides,
});
