import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import type { FlowContext, SessionFlowContext, TenantCompany } from "../endpoint/context.js";
import { type PasskeyRequestOptions, passkeyRequestOptions } from "../endpoint/passkeys.js";
import { step } from "../endpoint/step.js";

/**
 * The company's relying party, which passkeys need (docs/decisions.md, "Passkeys"): without an RP ID
 * they are off for the company, and the passkey endpoints answer auth.passkey.invalid.
 */
export const assertPasskeysOn = step(["auth.passkey.invalid"], (company: TenantCompany): void => {
  if (!company.policy.passkeys?.rpId)
    throw new AuthError("auth.passkey.invalid", { detail: "passkeys are off for the company" });
});

/**
 * A login without a login ID (auth/passkeys/start) needs, besides, the company's leave for a passkey
 * to replace the password.
 */
export const assertPasswordlessOn = step(["auth.passkey.invalid"], (company: TenantCompany): void => {
  assertPasskeysOn(company);
  if (!company.policy.passkeys?.allowPasswordless) {
    throw new AuthError("auth.passkey.invalid", {
      detail: "the company does not let a passkey replace the password",
    });
  }
});

/** Whether a login in checkpassword offers the user's passkey in the password's place (identity's answer). */
export const passkeyReplacesPassword = (user: User): boolean =>
  user.authenticators?.passkeyReplacesPassword ?? false;

/**
 * The options of a passkey's assertion for the session of this token, as it stands (checkpassword
 * or checkotp): identity has the session service bind a new challenge to the session. None when
 * the session's state does not offer a passkey (identity's answer).
 */
export async function passkeyLoginOptions(
  context: FlowContext,
  sessionToken: string,
): Promise<PasskeyRequestOptions | undefined> {
  const { optionsJson } = await context.backends.identity.beginPasskeyLogin({
    companyId: context.company.id,
    sessionToken,
  });
  return optionsJson === undefined ? undefined : passkeyRequestOptions.parse(JSON.parse(optionsJson));
}

/**
 * Identity's verification of a login's assertion (AuthenticationResponseJSON) in the request's
 * session, under the user's budget of passkeys. An assertion for which nothing was reserved (no
 * challenge in the session: never issued, or taken by another assertion; in a login without a
 * login ID, a credential the company does not know, which names no user) is wrong, and has spent
 * nothing.
 */
export const verifyAssertion = step(
  ["auth.passkey.invalid"],
  async (context: SessionFlowContext, responseJson: string) => {
    const verdict = await context.backends.identity.verifyPasskey({
      companyId: context.company.id,
      sessionToken: context.token,
      responseJson,
      clientAddress: context.clientAddress,
    });
    const { check } = verdict;
    if (!check) {
      throw new AuthError("auth.passkey.invalid", {
        detail: "no challenge of this session, or no user of the credential",
      });
    }
    return { ...verdict, check };
  },
);
