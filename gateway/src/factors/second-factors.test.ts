import type { AuthError } from "@auth/errors";
import { SecondFactorKind, type User, UserStatus } from "@auth/proto/identity";
import type { Session } from "@auth/proto/session";
import { SecretKind } from "@auth/proto/session";
import { describe, expect, it } from "vitest";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import { authenticatorApp } from "./authenticator-app.js";
import { backupCodes } from "./backup-codes.js";
import { passkey } from "./passkey.js";
import type { SecondFactor } from "./second-factor.js";
import {
  challengeSecondFactors,
  factorAnswering,
  factorsOf,
  moveToSecondFactors,
  secondFactors,
} from "./second-factors.js";
import { smsCode } from "./sms-code.js";

const userWith = (kinds: SecondFactorKind[]): User => ({
  id: "u",
  companyId: "c",
  role: "customer",
  status: UserStatus.ACTIVE,
  profileMnemocode: "P",
  hasPassword: true,
  passwordChangeRequired: false,
  authenticators: {
    secondFactors: kinds,
    secondFactorRequired: true,
    minPasswordLength: 8,
    passkeyReplacesPassword: false,
  },
});

/** A kind of factor that exists only here: what adding one to the list takes. */
const dummyKind = "SECOND_FACTOR_KIND_DUMMY" as unknown as SecondFactorKind;
const dummy: SecondFactor = {
  kind: dummyKind,
  field: "otp",
  secretKind: SecretKind.UNSPECIFIED,
  wrongAnswer: "auth.otp.invalid",
  challengeErrors: [],
  challenge: async () => ({ userPhone: "dummy" }),
  verify: async () => ({ valid: true, check: undefined }),
};
const withDummy = [dummy, ...secondFactors];
const noContext = {} as FlowContext;
const session = { sessionId: "s", token: "t" };

describe("the login's second factors as units (docs/decisions.md, Second factors)", () => {
  it("are the user's as identity lists them, in the list's order: a passkey, the app, SMS, backup codes", () => {
    const all = [
      SecondFactorKind.BACKUP_CODES,
      SecondFactorKind.SMS,
      SecondFactorKind.AUTHENTICATOR_APP,
      SecondFactorKind.PASSKEY,
    ];
    expect(factorsOf(userWith(all))).toEqual([passkey, authenticatorApp, smsCode, backupCodes]);
    expect(factorsOf(userWith([SecondFactorKind.SMS]))).toEqual([smsCode]);
    expect(factorsOf(userWith([]))).toEqual([]);
  });

  it("give checkotp's otp to the app when the user has one, else to SMS, and backup_code to backup codes", () => {
    const app = userWith([SecondFactorKind.AUTHENTICATOR_APP, SecondFactorKind.BACKUP_CODES]);
    expect(factorAnswering(app, "otp")).toEqual({ factor: authenticatorApp, owned: true });
    expect(factorAnswering(app, "backup_code")).toEqual({ factor: backupCodes, owned: true });
    expect(factorAnswering(userWith([SecondFactorKind.SMS]), "otp")).toEqual({
      factor: smsCode,
      owned: true,
    });
    // A field for which the user has no factor: a unit to tell the wrong answer, owning nothing.
    expect(factorAnswering(userWith([SecondFactorKind.SMS]), "backup_code")).toEqual({
      factor: backupCodes,
      owned: false,
    });
  });

  it("take no passkey's assertion in checkotp's fields: a user with a passkey alone has no factor answering otp", () => {
    expect(factorAnswering(userWith([SecondFactorKind.PASSKEY]), "otp")).toEqual({
      factor: authenticatorApp,
      owned: false,
    });
  });

  it("challenge a passkey once the session is in checkotp, with that state's token; a message before the move", async () => {
    const calls: string[] = [];
    const recording = (name: string, challengedInCheckotp: boolean): SecondFactor => ({
      ...dummy,
      challengedInCheckotp,
      challenge: async (_context, _user, { token }) => {
        calls.push(`${name} with ${token}`);
        return {};
      },
    });
    const factors = [recording("bound", true), recording("sent", false)];
    const context = { session: { sessionId: "s" }, token: "before" } as SessionFlowContext;
    await moveToSecondFactors(
      context,
      userWith([dummyKind]),
      async () => {
        calls.push("move");
        return { token: "after", session: {} as Session };
      },
      factors,
    );
    expect(calls).toEqual(["sent with before", "move", "bound with after"]);
  });

  it("refuse a user who must pass a second factor and has none with auth.user.restricted", async () => {
    await expect(challengeSecondFactors(noContext, userWith([]), session)).rejects.toMatchObject({
      code: "auth.user.restricted",
    } satisfies Partial<AuthError>);
  });

  it("take a new kind by one unit and one line of the list: the steps find, challenge and ask it by the user's authenticators alone", async () => {
    const user = userWith([dummyKind]);
    expect(factorsOf(user, withDummy)).toEqual([dummy]);
    expect(factorAnswering(user, "otp", withDummy)).toEqual({ factor: dummy, owned: true });
    expect(await challengeSecondFactors(noContext, user, session, withDummy)).toEqual({ userPhone: "dummy" });
    // A user without it is not asked it.
    expect(factorsOf(userWith([SecondFactorKind.SMS]), withDummy)).toEqual([smsCode]);
  });
});
