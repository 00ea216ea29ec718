import { SecondFactorKind } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import { passkeyLoginOptions, verifyAssertion } from "../steps/passkeys.js";
import type { SecondFactor } from "./second-factor.js";

/**
 * One of the user's passkeys (WebAuthn, docs/decisions.md, "Passkeys"), answered at
 * auth/checkpasskey with the browser's assertion: its challenge is identity's options for the
 * session in checkotp, and identity verifies the assertion under the user's budget of passkeys,
 * reserved before anything is verified.
 */
export const passkey = {
  kind: SecondFactorKind.PASSKEY,
  secretKind: SecretKind.PASSKEY,
  wrongAnswer: "auth.passkey.invalid",
  challengeErrors: [],
  challengedInCheckotp: true,
  challenge: async (context, _user, { token }) => ({
    passkeyOptions: await passkeyLoginOptions(context, token),
  }),
  async verify(context, _user, answer) {
    const { valid, check } = await verifyAssertion(context, answer);
    return { valid, check };
  },
} satisfies SecondFactor;
