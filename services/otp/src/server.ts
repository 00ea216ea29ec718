import { type AsyncService, implement, parseRequest } from "@auth/grpc-kit";
import { OtpPurpose, OtpServiceService } from "@auth/proto/otp";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { maskPhone } from "./mask-phone.js";
import { otpMessage } from "./messages.js";
import type { OtpRules, Otps } from "./otps.js";
import type { SmsSender } from "./sms/sender.js";
import { type HttpDefaults, senderFor } from "./sms/senders.js";

const id = z.string().min(1, "is required").max(200);

export interface SmsDelivery {
  /** The deployment's sender, for companies without their own. */
  fallback: SmsSender;
  http: HttpDefaults;
}

/** The requests' schemas, built once. */
const sendOtpRequest = z.object({
  companyId: id,
  userId: id,
  sessionId: id,
  phone: z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 phone number"),
  purpose: z.enum([OtpPurpose.LOGIN, OtpPurpose.RECOVERY], "must be LOGIN or RECOVERY"),
});
const verifyOtpRequest = z.object({ companyId: id, sessionId: id, otp: z.string().max(100) });

export function otpService(otps: Otps, rules: OtpRules, delivery: SmsDelivery, logger: Logger) {
  const methods: AsyncService<typeof OtpServiceService> = {
    async sendOtp(request) {
      const input = parseRequest(sendOtpRequest, request);
      await otps.send({
        ...input,
        text: (otp) => otpMessage(input.purpose, otp, Math.round(rules.lifetimeMs / 60_000), request.sms),
        sender: senderFor(request.sms, delivery.fallback, delivery.http),
      });
      metrics.otpsSent.inc({ purpose: input.purpose === OtpPurpose.RECOVERY ? "recovery" : "login" });
      logger.info({ companyId: input.companyId, userId: input.userId, purpose: input.purpose }, "otp sent");
      return { maskedPhone: maskPhone(input.phone) };
    },

    async verifyOtp(request) {
      const input = parseRequest(verifyOtpRequest, request);
      return { valid: await otps.verify(input.companyId, input.sessionId, input.otp) };
    },
  };

  return {
    name: "auth.otp.v1.OtpService",
    definition: OtpServiceService,
    implementation: implement(OtpServiceService, methods, { logger }),
  };
}
