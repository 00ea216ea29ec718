import type { Passkey } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { table } from "../table.js";
import { passkeyRecords } from "./passkey-table.js";

const passkey = (fields: Partial<Passkey> = {}): Passkey => ({
  id: "p-1",
  name: "Phone",
  transports: ["internal", "hybrid"],
  backedUp: true,
  userVerified: true,
  createdAt: new Date("2026-11-26T03:00:00Z"),
  lastUsedAt: undefined,
  cloneSuspected: false,
  ...fields,
});

/** The cells of the table's row that holds `text`. */
const rowWith = (printed: string, text: string) =>
  printed
    .split("\n")
    .find((line) => line.includes(text))
    ?.split("│")
    .map((cell) => cell.trim())
    .filter(Boolean);

describe("authctl's table of passkeys (text)", () => {
  it("has a header, and shows each passkey's name, kind, transports and times", () => {
    const printed = table([passkey()], passkeyRecords);
    expect(rowWith(printed, "name")).toEqual(["id", "name", "traits", "transports", "created", "last used"]);
    expect(rowWith(printed, "p-1")).toEqual([
      "p-1",
      "Phone",
      "synced, user verified",
      "internal,hybrid",
      "2026-11-26T03:00:00.000Z",
    ]);
  });

  it("marks a device-bound passkey and one suspected of being a clone", () => {
    const printed = table(
      [passkey({ backedUp: false, userVerified: false, cloneSuspected: true, lastUsedAt: new Date(0) })],
      passkeyRecords,
    );
    expect(rowWith(printed, "p-1")?.slice(2, 3)).toEqual(["device-bound, CLONE SUSPECTED"]);
  });

  it("says when the user has none, and gives the JSON of each", () => {
    expect(table([], passkeyRecords)).toBe("no passkeys");
    expect(passkeyRecords.toJSON(passkey())).toMatchObject({ id: "p-1", name: "Phone", backedUp: true });
  });
});
