import type { AuthError } from "@auth/errors";
import { ProviderKind } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { slotSettings } from "./oauth-settings.js";

const file = {
  slot: 1,
  kind: "PROVIDER_KIND_OIDC",
  issuer: "https://sso.example.com",
  clientId: "client",
  redirectUris: ["https://app.example.com/cb"],
  trustsProviderMfa: true,
  mfaAcrValues: ["phr"],
  maxAgeSeconds: 600,
};

describe("authctl oauth set: the options over the settings file", () => {
  it("keep the file's settings when no option is given", () => {
    expect(slotSettings(file, {})).toMatchObject({
      kind: ProviderKind.OIDC,
      clientId: "client",
      trustsProviderMfa: true,
      mfaAcrValues: ["phr"],
      maxAgeSeconds: 600,
    });
  });

  it("set the trust in the provider's multi-factor logins, its acr values and max_age", () => {
    expect(
      slotSettings(file, {
        trustsProviderMfa: false,
        mfaAcrValues: " phrh, urn:example:mfa ,",
        maxAgeSeconds: "3600",
      }),
    ).toMatchObject({
      trustsProviderMfa: false,
      mfaAcrValues: ["phrh", "urn:example:mfa"],
      maxAgeSeconds: 3_600,
    });
  });

  it("clear the acr values with an empty list, and max_age with 0", () => {
    expect(slotSettings(file, { mfaAcrValues: "", maxAgeSeconds: "0" })).toMatchObject({
      mfaAcrValues: [],
      maxAgeSeconds: 0,
    });
  });

  it.each(["-1", "1.5", "an hour", ""])("refuse --max-age-seconds %j, naming the option", (maxAgeSeconds) => {
    const refused = (() => {
      try {
        slotSettings(file, { maxAgeSeconds });
      } catch (error) {
        return error as AuthError;
      }
    })();
    expect(refused?.code).toBe("request.validation.failed");
    expect(refused?.message).toMatch(/^--max-age-seconds: /);
  });
});
