import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { eventJson } from "@auth/events";
import { pgOutboxSource, recordEvents } from "@auth/events/pg";
import { openDatabase } from "@auth/pg";
import { missingMigrations } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { describe, expect, it } from "vitest";
import { anEvent } from "../events.testing.js";
import { schema } from "../schema.js";

describe("drizzle migrations", () => {
  it("cover every change of the schema", () => {
    expect(missingMigrations(fileURLToPath(new URL("../..", import.meta.url)))).toEqual([]);
  });

  it(
    "create the event outbox as @auth/events writes and relays it",
    async () => {
      const database = await openDatabase({
        schema,
        migrationsFolder: fileURLToPath(new URL("../../drizzle", import.meta.url)),
      });
      try {
        const event = anEvent("admin.retention.changed", { companyId: randomUUID() });
        await recordEvents(database.db, [event]);
        const relayed: string[] = [];
        expect(
          await pgOutboxSource(database.db).relayBatch(10, async (entries) => {
            relayed.push(...entries.map((entry) => entry.payload));
          }),
        ).toBe(1);
        expect(relayed).toEqual([eventJson(event)]);
      } finally {
        await database.close();
      }
    },
    testBudgets.pgliteOpenMs,
  );
});
