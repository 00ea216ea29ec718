import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentitySchema, noticesSent } from "../schema.js";
import type { IdentityStore } from "./identity-store.js";
import { createTestCompany, newUserRow, openIdentityStore } from "./identity-store.testing.js";

const quarterHour = 15 * 60;

describe.each(databaseKinds())("the notices of a kind sent to a user on $name", (kind) => {
  let database: OpenedDatabase<IdentitySchema>;
  let store: IdentityStore;
  let companyId: string;
  const newUser = async () => (await store.createUser(newUserRow(companyId), systemOrigin)).id;
  const spend = (userId: string, event = "locked_out", limit = 1) =>
    store.spendNotice(companyId, userId, event, limit, quarterHour);

  beforeAll(async () => {
    ({ database, store } = await openIdentityStore(kind));
    companyId = await createTestCompany(store, "Notices");
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });

  it("are recorded up to the limit of the window, then held back", async () => {
    const userId = await newUser();
    expect(await spend(userId)).toBe(true);
    expect(await spend(userId)).toBe(false);
    const other = await newUser();
    const five = [];
    for (let i = 0; i < 6; i += 1) five.push(await spend(other, "password_changed", 5));
    expect(five).toEqual([...Array(5).fill(true), false]);
  });

  it("are never recorded beyond the limit, however many calls race", async () => {
    const userId = await newUser();
    for (const [event, limit] of [
      ["recovery_started", 1],
      ["backup_codes_issued", 5],
    ] as const) {
      const results = await Promise.all(Array.from({ length: 40 }, () => spend(userId, event, limit)));
      expect(results.filter(Boolean)).toHaveLength(limit);
      const [row] = await database.db
        .select({ sent: sql<number>`cardinality(${noticesSent.sentAt})` })
        .from(noticesSent)
        .where(
          and(
            eq(noticesSent.companyId, companyId),
            eq(noticesSent.userId, userId),
            eq(noticesSent.event, event),
          ),
        );
      expect(Number(row?.sent)).toBe(limit);
    }
  });

  it("are counted for each user and each kind on their own", async () => {
    const [first, second] = [await newUser(), await newUser()];
    expect(await spend(first, "locked_out")).toBe(true);
    expect(await spend(first, "locked_out")).toBe(false);
    expect(await spend(first, "recovery_started")).toBe(true);
    expect(await spend(second, "locked_out")).toBe(true);
  });

  it("go out again once the last one is older than the window (a sliding window)", async () => {
    const userId = await newUser();
    expect(await spend(userId)).toBe(true);
    const sentAt = (ago: string) =>
      database.db
        .update(noticesSent)
        .set({ sentAt: sql`array[now() - ${ago}::interval]::timestamptz[]` })
        .where(and(eq(noticesSent.companyId, companyId), eq(noticesSent.userId, userId)));
    await sentAt("14 minutes");
    expect(await spend(userId)).toBe(false);
    await sentAt("16 minutes");
    expect(await spend(userId)).toBe(true);
    expect(await spend(userId)).toBe(false);
  });
});
