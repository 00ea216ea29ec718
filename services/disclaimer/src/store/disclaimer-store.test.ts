import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { acceptances, type DisclaimerSchema, schema } from "../schema.js";
import { DisclaimerStore } from "./disclaimer-store.js";

/** Who asks for each change: only its event tells (security-events.test.ts). */
const anyone = systemOrigin;
const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const terms = { code: "terms", title: "Terms", description: "The terms", link: "https://example.com/terms" };
const privacy = {
  code: "privacy",
  title: "Privacy",
  description: "Privacy",
  link: "https://example.com/privacy",
};

describe.each(databaseKinds())("disclaimer store on $name", (kind) => {
  let database: OpenedDatabase<DisclaimerSchema>;
  let store: DisclaimerStore;
  let companyId: string;
  let userId: string;

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
    store = new DisclaimerStore(database.db);
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    companyId = randomUUID();
    userId = randomUUID();
  });

  describe("create", () => {
    it("creates version 1", async () => {
      expect(await store.create({ companyId, ...terms }, anyone)).toEqual({
        ...terms,
        version: 1,
        active: true,
      });
    });

    it("refuses a second disclaimer with the same code in one company", async () => {
      await store.create({ companyId, ...terms }, anyone);
      const error = await store.create({ companyId, ...terms }, anyone).catch((e: unknown) => e as AuthError);
      expect(error.code).toBe("resource.exists");
      await expect(store.create({ companyId: randomUUID(), ...terms }, anyone)).resolves.toBeDefined();
    });
  });

  describe("listRequired", () => {
    it("lists the company's disclaimers the user has not accepted, by code", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.create({ companyId, ...privacy }, anyone);
      await store.create(
        {
          companyId: randomUUID(),
          code: "elsewhere",
          title: "x",
          description: "",
          link: "https://x",
        },
        anyone,
      );
      expect((await store.listRequired(companyId, userId)).map((d) => d.code)).toEqual(["privacy", "terms"]);
    });

    it("lists nothing for a company without disclaimers", async () => {
      expect(await store.listRequired(companyId, userId)).toEqual([]);
    });
  });

  describe("accept", () => {
    it("stores every acceptance with user, version, time and client address", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.create({ companyId, ...privacy }, anyone);
      const result = await store.accept(
        {
          companyId,
          userId,
          codes: ["terms", "privacy"],
          clientAddress: "203.0.113.9",
        },
        anyone,
      );
      expect(result.missing).toEqual([]);
      expect(await store.listRequired(companyId, userId)).toEqual([]);
      const rows = await database.db.select().from(acceptances);
      const mine = rows.filter((row) => row.userId === userId);
      expect(mine).toHaveLength(2);
      expect(mine.every((row) => row.version === 1 && row.clientAddress === "203.0.113.9")).toBe(true);
      expect(mine.every((row) => row.acceptedAt.getTime() === result.acceptedAt.getTime())).toBe(true);
    });

    it("stores nothing and names the missing disclaimers when a code is missing", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.create({ companyId, ...privacy }, anyone);
      const result = await store.accept(
        {
          companyId,
          userId,
          codes: ["terms"],
          clientAddress: "203.0.113.9",
        },
        anyone,
      );
      expect(result.missing).toEqual([{ ...privacy, version: 1, active: true }]);
      expect((await store.listRequired(companyId, userId)).map((d) => d.code)).toEqual(["privacy", "terms"]);
    });

    it("ignores codes that are not required", async () => {
      await store.create({ companyId, ...terms }, anyone);
      const result = await store.accept(
        {
          companyId,
          userId,
          codes: ["terms", "unknown"],
          clientAddress: "::1",
        },
        anyone,
      );
      expect(result.missing).toEqual([]);
    });

    it("keeps other users' requirements", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.accept({ companyId, userId, codes: ["terms"], clientAddress: "::1" }, anyone);
      expect((await store.listRequired(companyId, randomUUID())).map((d) => d.code)).toEqual(["terms"]);
    });
  });

  describe("versions", () => {
    it("make every user accept a disclaimer again when a new version is published", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.accept({ companyId, userId, codes: ["terms"], clientAddress: "::1" }, anyone);
      const published = await store.publishVersion({ companyId, ...terms, title: "Terms 2" }, anyone);
      expect(published).toMatchObject({ version: 2, title: "Terms 2", active: true });
      expect(await store.listRequired(companyId, userId)).toEqual([published]);
      await store.accept({ companyId, userId, codes: ["terms"], clientAddress: "::1" }, anyone);
      const history = await store.listAcceptances({ companyId, userId, limit: 10 });
      expect(history.map((a) => a.version).sort()).toEqual([1, 2]);
    });

    it("refuse a version of an unknown disclaimer with resource.notfound", async () => {
      const error = await store.publishVersion({ companyId, ...terms }, anyone).catch((e: AuthError) => e);
      expect(error.code).toBe("resource.notfound");
    });
  });

  describe("deactivate", () => {
    it("stops asking for the disclaimer and keeps it in the list", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.deactivate(companyId, "terms", anyone);
      expect(await store.listRequired(companyId, userId)).toEqual([]);
      expect(await store.list(companyId)).toEqual([{ ...terms, version: 1, active: false }]);
    });
  });

  describe("companiesWithDisclaimers", () => {
    it("lists each company with an active disclaimer once, and no company whose disclaimers are all inactive", async () => {
      const deactivated = randomUUID();
      await store.create({ companyId, ...terms }, anyone);
      await store.create({ companyId, ...privacy }, anyone);
      await store.create({ companyId: deactivated, ...terms }, anyone);
      await store.deactivate(deactivated, terms.code, anyone);
      const listed = await store.companiesWithDisclaimers();
      expect(listed.filter((id) => id === companyId)).toEqual([companyId]);
      expect(listed).not.toContain(deactivated);
    });
  });

  describe("listAcceptances", () => {
    it("filters by disclaimer and user, newest first", async () => {
      await store.create({ companyId, ...terms }, anyone);
      await store.create({ companyId, ...privacy }, anyone);
      const other = randomUUID();
      await store.accept(
        { companyId, userId, codes: ["terms", "privacy"], clientAddress: "198.51.100.1" },
        anyone,
      );
      await store.accept(
        {
          companyId,
          userId: other,
          codes: ["terms", "privacy"],
          clientAddress: "198.51.100.2",
        },
        anyone,
      );
      const forTerms = await store.listAcceptances({ companyId, code: "terms", limit: 10 });
      expect(forTerms.map((a) => a.userId).sort()).toEqual([userId, other].sort());
      const forUser = await store.listAcceptances({ companyId, userId: other, limit: 10 });
      expect(forUser.map((a) => a.clientAddress)).toEqual(["198.51.100.2", "198.51.100.2"]);
    });
  });
});
