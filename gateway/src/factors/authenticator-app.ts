import { SecondFactorKind } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import type { SecondFactor } from "./second-factor.js";

/**
 * A code of the user's authenticator app (TOTP, docs/decisions.md, "TOTP"), in checkotp's `otp`:
 * nothing is sent, and identity reserves the check in the user's budget of app codes itself before
 * it compares, so that no caller gets a code compared without spending a guess.
 */
export const authenticatorApp = {
  kind: SecondFactorKind.AUTHENTICATOR_APP,
  field: "otp",
  secretKind: SecretKind.APP_CODE,
  wrongAnswer: "auth.otp.invalid",
  challengeErrors: [],
  // The app shows a new code every 30 seconds.
  challenge: async () => ({}),
  async verify(context, user, answer) {
    const { valid, check } = await context.backends.identity.verifyTotp({
      companyId: context.company.id,
      userId: user.id,
      code: answer,
      clientAddress: context.clientAddress,
      sessionToken: context.token,
    });
    return { valid, check };
  },
} satisfies SecondFactor;
