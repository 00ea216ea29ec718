import type { AuthError } from "@auth/errors";
import { SmsProvider, type SmsSettings } from "@auth/proto/otp";
import { describe, expect, it } from "vitest";
import { HttpSmsProvider } from "./http-sms-provider.js";
import { MemoryOutbox } from "./memory-outbox.js";
import { senderFor } from "./sms-senders.js";
import { SnsSmsProvider } from "./sns-sms-provider.js";
import { TwilioSmsProvider } from "./twilio-sms-provider.js";
import { VonageSmsProvider } from "./vonage-sms-provider.js";

const fallback = new MemoryOutbox();
const limits = { timeoutMs: 1_000, retries: 0 };
const settings = (provider: SmsProvider): SmsSettings => ({
  provider,
  url: "",
  token: "",
  account: "",
  sender: "",
  region: "",
});

describe("a company's SMS sender (docs/decisions.md, SMS providers)", () => {
  it("is the deployment's when the company names no provider", () => {
    expect(senderFor(undefined, fallback, limits)).toBe(fallback);
    expect(senderFor(settings(SmsProvider.UNSPECIFIED), fallback, limits)).toBe(fallback);
  });

  it.each([
    [SmsProvider.HTTP, HttpSmsProvider],
    [SmsProvider.TWILIO, TwilioSmsProvider],
    [SmsProvider.VONAGE, VonageSmsProvider],
    [SmsProvider.AWS_SNS, SnsSmsProvider],
  ])("is the provider its settings name (%s)", (provider, sender) => {
    expect(senderFor(settings(provider), fallback, limits)).toBeInstanceOf(sender);
  });

  it("is none for a provider this version does not know: its codes never go out through another", () => {
    const refusal = (() => {
      try {
        senderFor(settings(SmsProvider.UNRECOGNIZED), fallback, limits);
      } catch (error) {
        return error as AuthError;
      }
    })();
    expect(refusal?.code).toBe("service.unavailable");
  });
});
