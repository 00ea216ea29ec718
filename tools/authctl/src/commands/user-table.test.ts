import { SecondFactorKind, User } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { table } from "../table.js";
import { userRecords } from "./user-table.js";

const user = (authenticators: User["authenticators"]): User => ({
  ...User.fromJSON({ id: "u-1", loginName: "cleo", role: "customer", status: "USER_STATUS_ACTIVE" }),
  authenticators,
});

/** The cells of the table's row that holds `text`. */
const rowWith = (printed: string, text: string) =>
  printed
    .split("\n")
    .find((line) => line.includes(text))
    ?.split("│")
    .map((cell) => cell.trim())
    .filter(Boolean);

describe("authctl's table of users (text)", () => {
  it("has a header, and shows the user's second factors, whether one is required, the least password length and the external id of an imported user", () => {
    const printed = table(
      [
        {
          ...user({
            secondFactors: [SecondFactorKind.AUTHENTICATOR_APP, SecondFactorKind.BACKUP_CODES],
            secondFactorRequired: true,
            minPasswordLength: 8,
            passkeyReplacesPassword: false,
          }),
          externalId: "legacy-7",
        },
      ],
      userRecords,
    );
    expect(rowWith(printed, "login ID")).toEqual([
      "id",
      "login ID",
      "role",
      "status",
      "second factor",
      "min password",
      "external id",
    ]);
    expect(rowWith(printed, "u-1")).toEqual([
      "u-1",
      "cleo",
      "customer",
      "active",
      "app,backup-codes (required)",
      "8",
      "legacy-7",
    ]);
  });

  it("names a passkey among the second factors", () => {
    const printed = table(
      [
        user({
          secondFactors: [SecondFactorKind.PASSKEY, SecondFactorKind.BACKUP_CODES],
          secondFactorRequired: true,
          minPasswordLength: 8,
          passkeyReplacesPassword: true,
        }),
      ],
      userRecords,
    );
    expect(rowWith(printed, "u-1")?.slice(-2)).toEqual(["passkey,backup-codes (required)", "8"]);
  });

  it("says when the user has no second factor", () => {
    const printed = table(
      [
        user({
          secondFactors: [],
          secondFactorRequired: false,
          minPasswordLength: 15,
          passkeyReplacesPassword: false,
        }),
      ],
      userRecords,
    );
    expect(rowWith(printed, "u-1")?.slice(-2)).toEqual(["none", "15"]);
  });
});
