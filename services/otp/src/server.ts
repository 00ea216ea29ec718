import { type HttpDefaults, type SmsSender, senderFor } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import {
  type AsyncService,
  eventOriginOf,
  implement,
  messageSchema,
  parseRequest,
  type ServiceClient,
} from "@auth/grpc-kit";
import { ContactKind, type IdentityServiceService } from "@auth/proto/identity";
import { OtpPurpose, OtpServiceService, type SendOtpRequest, type VerifyOtpRequest } from "@auth/proto/otp";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { otpAccess } from "./access.js";
import { maskPhone } from "./mask-phone.js";
import { otpMessage } from "./messages.js";
import { purposeName } from "./otp-events.js";
import type { OtpRules, Otps } from "./otps.js";
import { smsPumpingLimitsOf } from "./sms-pumping/limits.js";

const id = z.string().min(1, "is required").max(200);

export interface SmsDelivery {
  /**
   * The owner of users' phones and companies' SMS settings, asked on every send, and told of a
   * right phone change's code.
   */
  identity: Pick<ServiceClient<typeof IdentityServiceService>, "getSmsDelivery" | "applyContactChange">;
  /** The deployment's sender, for companies without their own. */
  fallback: SmsSender;
  http: HttpDefaults;
}

/** The requests' schemas, built once. */
const sendOtpRequest = messageSchema<SendOtpRequest>()(
  z.object({
    companyId: id,
    userId: id,
    sessionId: id,
    purpose: z.enum(
      [OtpPurpose.LOGIN, OtpPurpose.RECOVERY, OtpPurpose.PHONE_CHANGE],
      "must be LOGIN, RECOVERY or PHONE_CHANGE",
    ),
    language: z.string().max(35).default(""),
  }),
);
const verifyOtpRequest = messageSchema<VerifyOtpRequest>()(
  z.object({
    companyId: id,
    sessionId: id,
    otp: z.string().max(100),
    purpose: z.enum(OtpPurpose).optional(),
  }),
);

export function otpService(otps: Otps, rules: OtpRules, delivery: SmsDelivery, logger: Logger) {
  const methods: AsyncService<typeof OtpServiceService> = {
    async sendOtp(request, context) {
      const input = parseRequest(sendOtpRequest, request);
      const { phone } = await otps.send(
        {
          ...input,
          // A recovery or phone change code's delivery spends one of the user's recovery messages at
          // identity; a phone change's goes to the user's pending phone.
          delivery: async () => {
            const { phone, sms, homeRegion, defaultLanguage, texts } = await delivery.identity.getSmsDelivery(
              {
                companyId: input.companyId,
                userId: input.userId,
                purpose: input.purpose,
              },
            );
            if (!phone) throw new AuthError("recovery.phone.notset", { detail: "the user has no phone" });
            return {
              phone,
              text: (otp) =>
                otpMessage(input.purpose, otp, Math.round(rules.lifetimeMs / 60_000), {
                  requested: input.language,
                  defaultLanguage,
                  texts,
                }),
              sender: senderFor(sms, delivery.fallback, delivery.http),
              limits: smsPumpingLimitsOf(sms?.limits, homeRegion),
            };
          },
        },
        eventOriginOf(context, input.userId),
      );
      metrics.otpsSent.inc({ purpose: purposeName(input.purpose) });
      logger.info({ companyId: input.companyId, userId: input.userId, purpose: input.purpose }, "otp sent");
      return { maskedPhone: await maskPhone(phone) };
    },

    async verifyOtp(request, context) {
      const input = parseRequest(verifyOtpRequest, request);
      const originOf = (userId: string) => eventOriginOf(context, userId);
      if (input.purpose !== OtpPurpose.PHONE_CHANGE)
        return { valid: await otps.verify(input.companyId, input.sessionId, input.otp, originOf) };
      const right = await otps.verifyPhoneChange(input.companyId, input.sessionId, input.otp, originOf);
      if (!right) return { valid: false };
      // The owner of the code applies the change it confirms: the caller never says it was right.
      const { applied } = await delivery.identity.applyContactChange({
        companyId: input.companyId,
        userId: right.userId,
        kind: ContactKind.PHONE,
        address: right.newPhone,
      });
      return { valid: applied };
    },
  };

  return {
    name: "auth.otp.v1.OtpService",
    definition: OtpServiceService,
    implementation: implement(OtpServiceService, methods, { logger, access: otpAccess }),
  };
}
