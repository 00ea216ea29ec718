import { SecondFactorKind, User } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { userLine } from "./user-line.js";

const user = (authenticators: User["authenticators"]): User => ({
  ...User.fromJSON({ id: "u-1", loginName: "cleo", role: "customer", status: "USER_STATUS_ACTIVE" }),
  authenticators,
});

describe("authctl's line of a user (text)", () => {
  it("shows the user's second factors, whether one is required, and the least password length", () => {
    const line = userLine(
      user({
        secondFactors: [SecondFactorKind.AUTHENTICATOR_APP, SecondFactorKind.BACKUP_CODES],
        secondFactorRequired: true,
        minPasswordLength: 8,
      }),
    );
    expect(line.split("\t")).toEqual([
      "u-1",
      "cleo",
      "customer",
      "active",
      "2fa: app,backup-codes (required)",
      "min password 8",
    ]);
  });

  it("says when the user has no second factor", () => {
    const line = userLine(user({ secondFactors: [], secondFactorRequired: false, minPasswordLength: 15 }));
    expect(line).toContain("2fa: none\tmin password 15");
  });
});
