import type { WebAuthnError } from "@simplewebauthn/browser";

/**
 * Why the browser gave no passkey, told to the user; no `failure` when the page itself stopped the
 * ceremony (a newer one replaced it), which is nothing to tell.
 */
export interface CeremonyFailure {
  failure?: string;
}

const otherDevice =
  "This device or security key cannot keep a passkey that asks for your PIN, fingerprint or face. Try another one.";

const wrongAddress =
  "Passkeys cannot be used at this address of the sign-in page. Please tell the site's support.";

/** What the user is told of a ceremony that gave nothing (@simplewebauthn/browser's error codes). */
const failures: Partial<Record<WebAuthnError["code"], string>> = {
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED:
    "This device or security key has a passkey of your account already.",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: otherDevice,
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: otherDevice,
  ERROR_INVALID_DOMAIN: wrongAddress,
  ERROR_INVALID_RP_ID: wrongAddress,
};

/** Why a ceremony gave nothing, in the user's words; nothing to tell when the page stopped it. */
export function ceremonyFailure(error: unknown): CeremonyFailure {
  const code = (error as Partial<WebAuthnError>).code;
  if (code === "ERROR_CEREMONY_ABORTED") return {};
  // The browser's word for a dialog the user closed, or one left until it timed out.
  if ((error as Error).name === "NotAllowedError")
    return { failure: "No passkey was used: the request was cancelled or timed out." };
  return { failure: (code && failures[code]) ?? "The passkey did not work. Please try again." };
}
