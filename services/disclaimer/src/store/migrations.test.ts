import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eventOutboxMigration } from "@auth/events/pg";
import { missingMigrations } from "@auth/pg/testing";
import { describe, expect, it } from "vitest";

describe("drizzle migrations", () => {
  it("cover every change of the schema", () => {
    expect(missingMigrations(fileURLToPath(new URL("../..", import.meta.url)))).toEqual([]);
  });

  it("create the event outbox as @auth/events defines it", () => {
    const migration = readFileSync(new URL("../../drizzle/0001_event_outbox.sql", import.meta.url), "utf8");
    expect(migration.trim()).toBe(eventOutboxMigration);
  });
});
