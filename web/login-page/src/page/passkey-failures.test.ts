import { en } from "@auth/i18n/catalogues/en/index.js";
import { WebAuthnError, type WebAuthnErrorCode } from "@simplewebauthn/browser";
import { beforeAll, describe, expect, it } from "vitest";
import { ceremonyFailure } from "./passkey-failures.js";
import { speak } from "./words.js";

// The test browser speaks English.
beforeAll(() => speak({ catalogue: en }));

const failed = (code: WebAuthnErrorCode, cause = "UnknownError") =>
  new WebAuthnError({
    message: "",
    code,
    cause: Object.assign(new Error(""), { name: cause }),
  });

describe("what the user is told when the browser gives no passkey", () => {
  it("tells nothing when the page itself ended the ceremony (a newer one replaced it)", () => {
    expect(ceremonyFailure(failed("ERROR_CEREMONY_ABORTED", "AbortError"))).toEqual({});
  });

  it("tells a dialog closed or timed out, in the browser's word for both", () => {
    const expected = { failure: "No passkey was used: the request was cancelled or timed out." };
    expect(ceremonyFailure(failed("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "NotAllowedError"))).toEqual(
      expected,
    );
    expect(ceremonyFailure(Object.assign(new Error(""), { name: "NotAllowedError" }))).toEqual(expected);
  });

  it("tells a device that has a passkey of the account already", () => {
    expect(ceremonyFailure(failed("ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", "InvalidStateError"))).toEqual(
      {
        failure: "This device or security key has a passkey of your account already.",
      },
    );
  });

  it("tells a device that cannot keep a passkey that verifies the user to try another", () => {
    for (const code of [
      "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT",
      "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
    ] as const)
      expect(ceremonyFailure(failed(code, "ConstraintError")).failure).toMatch(/Try another one\.$/);
  });

  it("tells a page at an address whose passkeys the browser refuses (an IP address, another site) to tell support", () => {
    for (const code of ["ERROR_INVALID_DOMAIN", "ERROR_INVALID_RP_ID"] as const)
      expect(ceremonyFailure(failed(code, "SecurityError")).failure).toBe(
        "Passkeys cannot be used at this address of the sign-in page. Please tell the site's support.",
      );
  });

  it("asks to try again after anything else", () => {
    expect(ceremonyFailure(failed("ERROR_AUTHENTICATOR_GENERAL_ERROR"))).toEqual({
      failure: "The passkey did not work. Please try again.",
    });
    expect(ceremonyFailure(new TypeError("no"))).toEqual({
      failure: "The passkey did not work. Please try again.",
    });
  });
});
