import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { SoftAuthenticator } from "./soft-authenticator.js";

const rp = { rpID: "localhost", rpName: "Acme" };
const origin = "http://localhost:8081";

/** Registers one credential and returns what a relying party would store of it. */
async function registered(authenticator: SoftAuthenticator) {
  const options = await generateRegistrationOptions({ ...rp, userName: "ann@acme.example" });
  const verified = await verifyRegistrationResponse({
    response: authenticator.register(options),
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rp.rpID,
  });
  if (!verified.registrationInfo) throw new Error("not registered");
  return { ...verified.registrationInfo, userHandle: options.user.id };
}

async function assertion(authenticator: SoftAuthenticator, overrides = {}) {
  const options = await generateAuthenticationOptions({ rpID: rp.rpID });
  return { options, response: authenticator.assert(options, overrides) };
}

describe("SoftAuthenticator answers @simplewebauthn/server's ceremonies", () => {
  it("registers a credential that verifies, device-bound and user-verified by default", async () => {
    const info = await registered(new SoftAuthenticator({ origin }));
    expect(info.credentialDeviceType).toBe("singleDevice");
    expect(info.credentialBackedUp).toBe(false);
    expect(info.userVerified).toBe(true);
  });

  it("signs assertions that verify, with a counter that grows and the user handle of the registration", async () => {
    const authenticator = new SoftAuthenticator({ origin, backedUp: true });
    const info = await registered(authenticator);
    expect(info.credentialBackedUp).toBe(true);
    let counter = 0;
    for (let round = 0; round < 2; round++) {
      const { options, response } = await assertion(authenticator);
      expect(response.response.userHandle).toBe(info.userHandle);
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rp.rpID,
        credential: { ...info.credential, counter },
        requireUserVerification: true,
      });
      expect(verified.verified).toBe(true);
      expect(verified.authenticationInfo.newCounter).toBe(counter + 1);
      counter = verified.authenticationInfo.newCounter;
    }
  });

  it("gets wrong what a test tells it to: origin, RP ID, user verification", async () => {
    const authenticator = new SoftAuthenticator({ origin });
    const info = await registered(authenticator);
    for (const overrides of [
      { origin: "https://evil.example" },
      { rpId: "evil.example" },
      { userVerified: false },
    ]) {
      const { options, response } = await assertion(authenticator, overrides);
      await expect(
        verifyAuthenticationResponse({
          response,
          expectedChallenge: options.challenge,
          expectedOrigin: origin,
          expectedRPID: rp.rpID,
          credential: info.credential,
          requireUserVerification: true,
        }),
      ).rejects.toThrow();
    }
  });
});
