import type { MessageKey } from "@auth/i18n/catalogue.js";
import type { Answer } from "../api.js";
import { Disclaimers } from "../disclaimers.js";
import type { Flow } from "../flow.js";
import { offerPasskey, passkeyOffered } from "../passkey-ceremony.js";
import { clearWhenWrong } from "../typed-secret.js";
import { disableFor, Step } from "../view.js";
import { text } from "../words.js";

/** The endpoints of one OTP step: at login (with backup codes) or in a recovery. */
export interface OtpCalls {
  check: string;
  renew: string;
  backupCodes: boolean;
}

export const loginOtp: OtpCalls = { check: "checkotp", renew: "renewotp", backupCodes: true };
export const recoveryOtp: OtpCalls = {
  check: "recovery/checkotp",
  renew: "recovery/renewotp",
  backupCodes: false,
};

/** The ways of passing the step, in the order a login offers them (docs/decisions.md, "Second factors"). */
type Way = "passkey" | "code" | "backupCode";

/**
 * checkotp and recovery-checkotp: at login the user's passkey when the answer offers one, else the
 * code of the SMS or of the authenticator app, with a new SMS on request, or a backup code instead
 * (with the disclaimers to accept, for a user without a password); in a recovery, the SMS code.
 */
export function showOtp(flow: Flow, answer: Answer, calls: OtpCalls, chosen?: Way): void {
  const ways: Way[] = [
    ...(passkeyOffered(answer.passkey_options) ? (["passkey"] as const) : []),
    "code",
    ...(calls.backupCodes ? (["backupCode"] as const) : []),
  ];
  const way = chosen ?? ways[0] ?? "code";
  // No user_phone: no SMS was sent, the user has an authenticator app or a passkey (docs/decisions.md, "TOTP").
  const app = answer.user_phone === undefined;
  const step = stepOf(way, app, answer.user_phone);
  const code =
    way === "backupCode"
      ? step.field({
          label: text("otp.backupCodeLabel"),
          name: "backup_code",
          autocomplete: "off",
          hint: text("otp.backupCodeHint"),
        })
      : way === "code"
        ? step.field({
            label: text(app ? "otp.appLabel" : "otp.smsLabel"),
            name: "otp",
            autocomplete: "one-time-code",
            inputmode: "numeric",
            // What an SMS code risks, told where one is asked for (NIST SP 800-63B-4 3.2.9, ASVS
            // 5.0 6.6.1; docs/security.md, "TOTP").
            ...(app ? {} : { hint: text("otp.smsRisk") }),
          })
        : undefined;
  const disclaimers = new Disclaimers(step, answer.disclaimers_required ?? []);
  if (code) {
    step.submit(text("common.continue"), async () => {
      const reply = await flow.send(calls.check, {
        [way === "backupCode" ? "backup_code" : "otp"]: code.value.trim(),
        ...disclaimers.fields(),
      });
      flow.proceed(step, reply);
      if (reply.answer.status === "success") return;
      if (reply.answer.disclaimers_required) disclaimers.update(reply.answer.disclaimers_required);
      clearWhenWrong(reply, code);
    });
  } else {
    offerPasskey(flow, step, answer, disclaimers, (check) => step.submit(text("otp.usePasskey"), check));
  }
  if (code && way === "code" && !app) {
    const renew = step.action(text("otp.sendNewCode"), async () => {
      const reply = await flow.send(calls.renew);
      if (reply.answer.status === "success") {
        step.notice(text("otp.newCodeSent", { phone: reply.answer.user_phone ?? answer.user_phone ?? "" }));
        return;
      }
      flow.fail(step, reply, { "request.ratelimit.exceeded": text("otp.newCodeNotYet") });
      if (reply.retryAfterSeconds) disableFor(renew, reply.retryAfterSeconds, code);
    });
  }
  const otherWays: Record<Way, MessageKey<"page">> = {
    passkey: "common.usePasskeyInstead",
    code: app ? "otp.useAppInstead" : "otp.useSmsInstead",
    backupCode: "otp.useBackupCodeInstead",
  };
  for (const other of ways.filter((each) => each !== way))
    step.action(text(otherWays[other]), () => showOtp(flow, answer, calls, other));
  step.show();
}

/** The step of one way, its title saying what it asks for. */
function stepOf(way: Way, app: boolean, phone: string | undefined): Step {
  if (way === "passkey") return new Step(text("otp.passkeyTitle"), text("otp.passkeyIntro"));
  if (way === "backupCode") return new Step(text("otp.backupCodeTitle"), text("otp.backupCodeIntro"));
  if (app) return new Step(text("otp.appTitle"), text("otp.appIntro"));
  return new Step(text("otp.smsTitle"), text("otp.smsIntro", { phone: phone ?? "" }));
}
