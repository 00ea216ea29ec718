import { AuthError } from "@auth/errors";
import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import type { FlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import {
  answerExamples,
  exampleToken,
  inState,
  type SuccessFields,
  success,
  userPhone,
} from "../../endpoint/responses.js";
import { assertTransition } from "../../endpoint/transitions.js";
import { identityAcceptsCaptcha } from "../../steps/identity-captcha-check.js";
import { lookUpAndCountLoginId } from "../../steps/login-lookup.js";
import { maskEmail } from "../../steps/mask-email.js";
import { sendOtp, startSessionWithOtp } from "../../steps/otp-delivery.js";
import { chooseRecoveryMethod } from "../../steps/recovery-methods.js";
import { startSession } from "../../steps/session-moves.js";
import { assertUserMayLogIn } from "../../steps/user-status.js";

const body = z.object({
  login_id: fields.loginId,
  captcha_response: z.string("must be a string").max(8_192),
  method: z.enum(["PHONE", "MAIL", "QUESTION"], "must be PHONE, MAIL or QUESTION").optional(),
});

const responses = z.discriminatedUnion("verification", [
  inState("recovery-checkotp", { verification: z.literal("PHONE"), user_phone: userPhone }),
  inState("recovery-checkquestion", {
    verification: z.literal("QUESTION"),
    control_question: z.string(),
  }),
  success({
    verification: z.literal("MAIL"),
    user_email: z.string().describe("The user's e-mail, masked: the first character and the domain"),
  }),
]);

/** spec 4.10: starts access recovery by phone OTP, control question or e-mail link. */
export const recover = defineEndpoint({
  operation: "recovery/recover",
  summary: "Start access recovery",
  body,
  responses,
  examples: {
    request: { login_id: "ann@acme.example", captcha_response: "03AFcWeA5kTw-rY2Hq", method: "PHONE" },
    answers: [
      {
        session_token: exampleToken,
        session_state: "recovery-checkotp",
        verification: "PHONE",
        user_phone: answerExamples.checkotp.user_phone,
      },
      {
        session_token: exampleToken,
        session_state: "recovery-checkquestion",
        verification: "QUESTION",
        control_question: "What was the name of your first school?",
      },
      { verification: "MAIL", user_email: "a***@acme.example" },
    ],
  },
  steps: [lookUpAndCountLoginId, assertUserMayLogIn, chooseRecoveryMethod, sendOtp],
  errors: ["auth.captcha.invalid", "auth.loginid.notfound"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  // Always a captcha (docs/api-contract.md, "Recovery"), and before anything tells whether the
  // login ID exists.
  if (!(await identityAcceptsCaptcha(context, context.body.captcha_response)))
    throw new AuthError("auth.captcha.invalid");
  const { normalizedLoginId, user } = await lookUpAndCountLoginId(context, context.body.login_id);
  if (!user) throw new AuthError("auth.loginid.notfound");
  assertUserMayLogIn(user);
  const method = chooseRecoveryMethod(context.company, user, context.body.method);

  switch (method) {
    case "PHONE": {
      const started = await startSessionWithOtp(
        context,
        user,
        "recovery-checkotp",
        normalizedLoginId,
        OtpPurpose.RECOVERY,
      );
      return {
        verification: "PHONE",
        session_token: started.token,
        session_state: "recovery-checkotp",
        user_phone: started.userPhone,
      };
    }
    case "QUESTION": {
      const started = await startSession(context, user, "recovery-checkquestion", normalizedLoginId);
      return {
        verification: "QUESTION",
        session_token: started.token,
        session_state: "recovery-checkquestion",
        control_question: user.controlQuestion ?? "",
      };
    }
    case "MAIL": {
      assertTransition(context.operation, null, null);
      await context.backends.recovery.sendRecoveryLink({
        companyId: context.company.id,
        userId: user.id,
        loginId: normalizedLoginId,
        language: context.language,
      });
      return { verification: "MAIL", user_email: maskEmail(user.email ?? "") };
    }
  }
}
