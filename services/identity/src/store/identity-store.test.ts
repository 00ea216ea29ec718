import { AuthError } from "@auth/errors";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policyInput, withPolicyDefaults } from "../companies.js";
import type { IdentitySchema } from "../schema.js";
import type { IdentityStore } from "./identity-store.js";
import { newUserRow, openIdentityStore } from "./identity-store.testing.js";

const policy = withPolicyDefaults(policyInput.parse({}));
let sequence = 0;
const unique = (prefix: string) => `${prefix}${++sequence}`;

describe.each(databaseKinds())("identity store on $name", (kind) => {
  let database: OpenedDatabase<IdentitySchema>;
  let store: IdentityStore;

  beforeAll(async () => {
    ({ database, store } = await openIdentityStore(kind));
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });

  describe("companies", () => {
    it("creates a company and finds it by code and by id", async () => {
      const created = await store.createCompany({ code: unique("acme"), name: "Acme", policy });
      expect(await store.findCompanyByCode(created.code)).toEqual(created);
      expect(await store.findCompanyById(created.id)).toEqual(created);
      expect(created.policy).toEqual(policy);
      expect(created.suspended).toBe(false);
    });

    it("refuses a second company with the same code as resource.exists", async () => {
      const code = unique("dup");
      await store.createCompany({ code, name: "One", policy });
      const error = await store.createCompany({ code, name: "Two", policy }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("resource.exists");
    });

    it("finds nothing for an unknown code", async () => {
      expect(await store.findCompanyByCode("nobody")).toBeUndefined();
    });
  });

  describe("API keys", () => {
    it("finds the company of a key by the key's hash", async () => {
      const company = await store.createCompany({ code: unique("keys"), name: "Keys", policy });
      await store.createApiKey(company.id, unique("hash-"));
      const hash = unique("hash-");
      await store.createApiKey(company.id, hash);
      expect((await store.findCompanyByApiKey(hash))?.id).toBe(company.id);
      expect(await store.findCompanyByApiKey("unknown")).toBeUndefined();
    });
  });

  describe("users", () => {
    it("finds a user by each of its login IDs, within its company only", async () => {
      const company = await store.createCompany({ code: unique("users"), name: "Users", policy });
      const other = await store.createCompany({ code: unique("other"), name: "Other", policy });
      const user = await store.createUser(
        newUserRow(company.id, { loginName: "ann", phone: "+15551234567", email: "ann@example.com" }),
      );
      expect((await store.findUserByLoginId(company.id, "loginName", "ann"))?.id).toBe(user.id);
      expect((await store.findUserByLoginId(company.id, "phone", "+15551234567"))?.id).toBe(user.id);
      expect((await store.findUserByLoginId(company.id, "email", "ann@example.com"))?.id).toBe(user.id);
      expect(await store.findUserByLoginId(other.id, "email", "ann@example.com")).toBeUndefined();
      expect(await store.findUser(other.id, user.id)).toBeUndefined();
    });

    it("keeps login IDs unique within a company", async () => {
      const company = await store.createCompany({ code: unique("uniq"), name: "Uniq", policy });
      await store.createUser(newUserRow(company.id, { email: "bob@example.com" }));
      const error = await store.createUser(newUserRow(company.id, { email: "bob@example.com" })).then(
        () => undefined,
        (e: unknown) => e as AuthError,
      );
      expect(error?.code).toBe("resource.exists");
    });

    it("lets many users have no login name, phone or e-mail", async () => {
      const company = await store.createCompany({ code: unique("nulls"), name: "Nulls", policy });
      await store.createUser(newUserRow(company.id, { loginName: "a" }));
      await expect(store.createUser(newUserRow(company.id, { loginName: "b" }))).resolves.toBeDefined();
    });

    it("replaces a password hash", async () => {
      const company = await store.createCompany({ code: unique("pw"), name: "Pw", policy });
      const user = await store.createUser(newUserRow(company.id, { loginName: "carl", passwordHash: "old" }));
      await store.setPasswordHash(company.id, user.id, "new");
      expect((await store.findUser(company.id, user.id))?.passwordHash).toBe("new");
    });
  });
});
