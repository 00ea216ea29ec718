import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentitySchema, recoveryMessages } from "../schema.js";
import type { IdentityStore } from "./identity-store.js";
import { createTestCompany, newUserRow, openIdentityStore } from "./identity-store.testing.js";

const hour = 3600;

describe.each(databaseKinds())("the recovery messages of a user on $name", (kind) => {
  let database: OpenedDatabase<IdentitySchema>;
  let store: IdentityStore;
  let companyId: string;
  const newUser = async () => (await store.createUser(newUserRow(companyId), systemOrigin)).id;
  const spend = (userId: string, limit = 5) => store.spendRecoveryMessage(companyId, userId, limit, hour);

  beforeAll(async () => {
    ({ database, store } = await openIdentityStore(kind));
    companyId = await createTestCompany(store, "Messages");
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });

  it("are spent up to the limit, then refused with the seconds until the oldest leaves the hour", async () => {
    const userId = await newUser();
    for (let i = 0; i < 5; i += 1) expect(await spend(userId)).toEqual({ spent: true });
    const refused = await spend(userId);
    expect(refused.spent).toBe(false);
    if (!refused.spent) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(hour - 120);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(hour);
    }
  });

  it("are never spent beyond the limit, however many calls race", async () => {
    const userId = await newUser();
    const results = await Promise.all(Array.from({ length: 50 }, () => spend(userId)));
    expect(results.filter((result) => result.spent)).toHaveLength(5);
    const [row] = await database.db
      .select({ sent: sql<number>`cardinality(${recoveryMessages.sentAt})` })
      .from(recoveryMessages)
      .where(and(eq(recoveryMessages.companyId, companyId), eq(recoveryMessages.userId, userId)));
    expect(Number(row?.sent)).toBe(5);
  });

  it("are counted for each user on their own", async () => {
    const [first, second] = [await newUser(), await newUser()];
    for (let i = 0; i < 5; i += 1) await spend(first);
    expect((await spend(first)).spent).toBe(false);
    expect((await spend(second)).spent).toBe(true);
  });

  it("are free again one by one as they grow older than the hour (a sliding window)", async () => {
    const userId = await newUser();
    for (let i = 0; i < 5; i += 1) await spend(userId);
    // The two oldest went out more than an hour ago.
    await database.db
      .update(recoveryMessages)
      .set({
        sentAt: sql`array[now() - interval '2 hours', now() - interval '61 minutes', now(), now(), now()]::timestamptz[]`,
      })
      .where(and(eq(recoveryMessages.companyId, companyId), eq(recoveryMessages.userId, userId)));
    expect((await spend(userId)).spent).toBe(true);
    expect((await spend(userId)).spent).toBe(true);
    expect((await spend(userId)).spent).toBe(false);
  });
});
