import { fileURLToPath } from "node:url";
import { missingMigrations } from "@auth/pg/testing";
import { describe, expect, it } from "vitest";

describe("drizzle migrations", () => {
  it("cover every change of the schema", () => {
    expect(missingMigrations(fileURLToPath(new URL("../..", import.meta.url)))).toEqual([]);
  });
});
