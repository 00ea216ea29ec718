import { AuthError } from "@auth/errors";
import type { SessionFlowContext } from "../../endpoint/context.js";

/**
 * How recent the login must be to change the login's second factor: a token stolen later, or left
 * on a shared device, cannot bind an authenticator app of its holder's (ASVS 5.0 7.5.1;
 * docs/security.md, "TOTP"). Ten minutes: time to scan a QR code right after signing in.
 */
export const freshLoginSeconds = 600;

/** auth.reauthentication.required unless the session started within freshLoginSeconds. */
export function assertFreshLogin(context: SessionFlowContext<unknown>): void {
  if (context.session.ageSeconds > freshLoginSeconds) {
    throw new AuthError("auth.reauthentication.required", {
      detail: `sign in again: the login is more than ${freshLoginSeconds / 60} minutes old`,
    });
  }
}
