import { describe, expect, it } from "vitest";
import { AuthError, errorCodes, isErrorCode, weakPasswordError } from "./index.js";

describe("error code table", () => {
  it("gives the spec's HTTP statuses where the spec states them", () => {
    expect(errorCodes["auth.loginid.notfound"].http).toBe(404);
    expect(errorCodes["auth.user.restricted"].http).toBe(403);
    expect(errorCodes["auth.user.closed"].http).toBe(403);
    expect(errorCodes["auth.user.denied"].http).toBe(403);
    expect(errorCodes["auth.oauth.failed"].http).toBe(401);
    expect(errorCodes["auth.oauth.notfound"].http).toBe(404);
    expect(errorCodes["recovery.method.restricted"].http).toBe(403);
  });

  it("gives the HTTP statuses of docs/api-contract.md where the spec leaves them open", () => {
    expect(errorCodes["auth.session.invalid"].http).toBe(409);
    expect(errorCodes["auth.restricted"].http).toBe(403);
    expect(errorCodes["recovery.phone.notset"].http).toBe(409);
    expect(errorCodes["request.validation.failed"].http).toBe(400);
    expect(errorCodes["request.ratelimit.exceeded"].http).toBe(429);
    expect(errorCodes["service.unavailable"].http).toBe(503);
  });

  it("answers a weak new password with 422", () => {
    const error = weakPasswordError("too short");
    expect(error.code).toBe("request.validation.failed");
    expect(error.httpStatus).toBe(422);
  });

  it("takes the table's status unless told otherwise", () => {
    expect(new AuthError("auth.token.expired").httpStatus).toBe(401);
  });

  it("recognises only codes of the table", () => {
    expect(isErrorCode("auth.otp.invalid")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});
