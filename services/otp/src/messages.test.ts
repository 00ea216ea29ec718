import { OtpPurpose, SmsProvider } from "@auth/proto/otp";
import { describe, expect, it } from "vitest";
import { otpMessage } from "./messages.js";

describe("OTP message", () => {
  it("uses the service's wording by default", () => {
    expect(otpMessage(OtpPurpose.LOGIN, "123456", 5)).toBe(
      "Your login code is 123456. It expires in 5 minutes. Never share it.",
    );
    expect(otpMessage(OtpPurpose.RECOVERY, "123456", 5)).toContain("access recovery code is 123456");
  });

  it("uses the company's template for the purpose", () => {
    const settings = {
      provider: SmsProvider.HTTP,
      url: "",
      token: "",
      account: "",
      sender: "",
      region: "",
      loginTemplate: "ACME: {code} ({minutes} min)",
      recoveryTemplate: "ACME recovery: {code}",
    };
    expect(otpMessage(OtpPurpose.LOGIN, "654321", 5, settings)).toBe("ACME: 654321 (5 min)");
    expect(otpMessage(OtpPurpose.RECOVERY, "654321", 5, settings)).toBe("ACME recovery: 654321");
  });
});
