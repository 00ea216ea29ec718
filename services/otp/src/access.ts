import type { AccessTable } from "@auth/grpc-kit";
import type { OtpServiceService } from "@auth/proto/otp";

/** Only the gateway's flows send and check OTPs (a phone change's too) (docs/security.md, "Trust between the services"). */
export const otpAccess: AccessTable<typeof OtpServiceService> = {
  sendOtp: ["gateway"],
  verifyOtp: ["gateway"],
};
