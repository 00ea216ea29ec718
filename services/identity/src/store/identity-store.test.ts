import { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { Factor } from "@auth/proto/events";
import { metrics } from "@auth/telemetry";
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
      const created = await store.createCompany({ code: unique("acme"), name: "Acme", policy }, systemOrigin);
      expect(await store.findCompanyByCode(created.code)).toEqual(created);
      expect(await store.findCompanyById(created.id)).toEqual(created);
      expect(created.policy).toEqual(policy);
      expect(created.suspended).toBe(false);
    });

    it("refuses a second company with the same code as resource.exists", async () => {
      const code = unique("dup");
      await store.createCompany({ code, name: "One", policy }, systemOrigin);
      const error = await store
        .createCompany({ code, name: "Two", policy }, systemOrigin)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("resource.exists");
    });

    it("finds nothing for an unknown code", async () => {
      expect(await store.findCompanyByCode("nobody")).toBeUndefined();
    });
  });

  describe("API keys", () => {
    it("finds the company of a key by the key's hash", async () => {
      const company = await store.createCompany({ code: unique("keys"), name: "Keys", policy }, systemOrigin);
      await store.createApiKey(company.id, unique("hash-"), "", systemOrigin);
      const hash = unique("hash-");
      await store.createApiKey(company.id, hash, "", systemOrigin);
      expect((await store.findCompanyByApiKey(hash))?.id).toBe(company.id);
      expect(await store.findCompanyByApiKey("unknown")).toBeUndefined();
    });
  });

  describe("users", () => {
    it("finds a user by each of its login IDs, within its company only", async () => {
      const company = await store.createCompany(
        { code: unique("users"), name: "Users", policy },
        systemOrigin,
      );
      const other = await store.createCompany({ code: unique("other"), name: "Other", policy }, systemOrigin);
      const user = await store.createUser(
        newUserRow(company.id, { loginName: "ann", phone: "+15551234567", email: "ann@example.com" }),
        systemOrigin,
      );
      expect((await store.findUserByLoginId(company.id, "loginName", "ann"))?.id).toBe(user.id);
      expect((await store.findUserByLoginId(company.id, "phone", "+15551234567"))?.id).toBe(user.id);
      expect((await store.findUserByLoginId(company.id, "email", "ann@example.com"))?.id).toBe(user.id);
      expect(await store.findUserByLoginId(other.id, "email", "ann@example.com")).toBeUndefined();
      expect(await store.findUser(other.id, user.id)).toBeUndefined();
    });

    it("keeps login IDs unique within a company", async () => {
      const company = await store.createCompany({ code: unique("uniq"), name: "Uniq", policy }, systemOrigin);
      await store.createUser(newUserRow(company.id, { email: "bob@example.com" }), systemOrigin);
      const error = await store
        .createUser(newUserRow(company.id, { email: "bob@example.com" }), systemOrigin)
        .then(
          () => undefined,
          (e: unknown) => e as AuthError,
        );
      expect(error?.code).toBe("resource.exists");
    });

    it("lets many users have no login name, phone or e-mail", async () => {
      const company = await store.createCompany(
        { code: unique("nulls"), name: "Nulls", policy },
        systemOrigin,
      );
      await store.createUser(newUserRow(company.id, { loginName: "a" }), systemOrigin);
      await expect(
        store.createUser(newUserRow(company.id, { loginName: "b" }), systemOrigin),
      ).resolves.toBeDefined();
    });

    it("tell in every read of a user whether the user has backup codes left", async () => {
      const company = await store.createCompany(
        { code: unique("codes"), name: "Codes", policy },
        systemOrigin,
      );
      const created = await store.createUser(
        newUserRow(company.id, { loginName: unique("dan") }),
        systemOrigin,
      );
      expect(created.hasBackupCodes).toBe(false);
      const subject = unique("subject-");
      await store.linkOAuthIdentity(company.id, 1, subject, created.id, systemOrigin);
      const reads = () => [
        store.findUser(company.id, created.id),
        store.findUserByLoginId(company.id, "loginName", created.loginName ?? ""),
        store.listUsers(company.id, undefined, 10).then(([row]) => row),
        store.updateUser(company.id, created.id, { role: "customer" }, systemOrigin),
        store.findUserByOAuthSubject(company.id, 1, subject),
      ];
      const hasBackupCodes = async () =>
        (await Promise.all(reads())).map((row) => [row?.id, row?.hasBackupCodes]);
      expect(await hasBackupCodes()).toEqual(Array(5).fill([created.id, false]));
      await store.replaceBackupCodes(company.id, created.id, ["hash-1", "hash-2"], systemOrigin);
      expect(await hasBackupCodes()).toEqual(Array(5).fill([created.id, true]));
      const check = {
        origin: systemOrigin,
        companyId: company.id,
        userId: created.id,
        factor: Factor.BACKUP_CODE,
        first: false,
      };
      for (const codeHash of ["hash-1", "hash-2"]) await store.useBackupCode(check, codeHash);
      expect(await hasBackupCodes()).toEqual(Array(5).fill([created.id, false]));
    });

    it("give a first set of backup codes only to a user who has none: of sets given at once, one", async () => {
      const company = await store.createCompany(
        { code: unique("first"), name: "First", policy },
        systemOrigin,
      );
      const user = await store.createUser(newUserRow(company.id, { loginName: unique("fay") }), systemOrigin);
      const given = await Promise.all(
        ["a", "b", "c", "d"].map((set) =>
          store.addFirstBackupCodes(company.id, user.id, [`${set}-1`, `${set}-2`], systemOrigin),
        ),
      );
      expect(given.filter(Boolean)).toHaveLength(1);
      expect(await store.countBackupCodes(company.id, user.id)).toBe(2);
      await store.replaceBackupCodes(company.id, user.id, ["new-1"], systemOrigin);
      expect(await store.addFirstBackupCodes(company.id, user.id, ["late-1"], systemOrigin)).toBe(false);
      expect(await store.anyBackupCode(company.id, user.id)).toBe("new-1");
    });

    it.runIf(kind.name === "PostgreSQL")(
      "read a user and whether the user has backup codes in one statement (docs/performance.md)",
      async () => {
        const company = await store.createCompany(
          { code: unique("trip"), name: "Trip", policy },
          systemOrigin,
        );
        const user = await store.createUser(
          newUserRow(company.id, { loginName: unique("tia") }),
          systemOrigin,
        );
        await store.replaceBackupCodes(company.id, user.id, ["hash-1"], systemOrigin);
        const statements = async () => (await metrics.postgresQueries.get()).values[0]?.value ?? 0;
        const before = await statements();
        expect((await store.findUser(company.id, user.id))?.hasBackupCodes).toBe(true);
        expect(
          (await store.findUserByLoginId(company.id, "loginName", user.loginName ?? ""))?.hasBackupCodes,
        ).toBe(true);
        expect((await statements()) - before).toBe(2);
      },
    );

    it("replaces a password hash (a stronger one of the same password)", async () => {
      const company = await store.createCompany({ code: unique("pw"), name: "Pw", policy }, systemOrigin);
      const user = await store.createUser(
        newUserRow(company.id, { loginName: "carl", passwordHash: "old" }),
        systemOrigin,
      );
      await store.rehashPassword(company.id, user.id, "new");
      expect((await store.findUser(company.id, user.id))?.passwordHash).toBe("new");
    });
  });
});
