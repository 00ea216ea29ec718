import type { MessageKey } from "@auth/i18n/catalogue.js";
import type { WebAuthnError } from "@simplewebauthn/browser";
import { text } from "./words.js";

/**
 * Why the browser gave no passkey, told to the user; no `failure` when the page itself stopped the
 * ceremony (a newer one replaced it), which is nothing to tell.
 */
export interface CeremonyFailure {
  failure?: string;
}

/** What the user is told of a ceremony that gave nothing (@simplewebauthn/browser's error codes). */
const failures: Partial<Record<WebAuthnError["code"], MessageKey<"page">>> = {
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "passkeyCeremony.previouslyRegistered",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "passkeyCeremony.otherDevice",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "passkeyCeremony.otherDevice",
  ERROR_INVALID_DOMAIN: "passkeyCeremony.wrongAddress",
  ERROR_INVALID_RP_ID: "passkeyCeremony.wrongAddress",
};

/** Why a ceremony gave nothing, in the user's words; nothing to tell when the page stopped it. */
export function ceremonyFailure(error: unknown): CeremonyFailure {
  const code = (error as Partial<WebAuthnError>).code;
  if (code === "ERROR_CEREMONY_ABORTED") return {};
  // The browser's word for a dialog the user closed, or one left until it timed out.
  if ((error as Error).name === "NotAllowedError") return { failure: text("passkeyCeremony.cancelled") };
  return { failure: text((code && failures[code]) || "passkeyCeremony.failed") };
}
