import type { Answer } from "../api.js";
import { Disclaimers } from "../disclaimers.js";
import type { Flow } from "../flow.js";
import { offerPasskey, passkeyOffered } from "../passkey-ceremony.js";
import { clearWhenWrong } from "../typed-secret.js";
import { disableFor, Step } from "../view.js";

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

/**
 * What an SMS code risks, told where one is asked for (NIST SP 800-63B-4 3.2.9, ASVS 5.0 6.6.1;
 * docs/security.md, "TOTP").
 */
const smsRisk =
  "A code by SMS can be taken by someone who moves your number to their SIM card or reads your messages. An authenticator app is safer: you can set one up once you are signed in.";

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
          label: "Backup code",
          name: "backup_code",
          autocomplete: "off",
          hint: "Like ABCD-EFGH-JKMN.",
        })
      : way === "code"
        ? step.field({
            label: app ? "Code from the app" : "Code from the SMS",
            name: "otp",
            autocomplete: "one-time-code",
            inputmode: "numeric",
            ...(app ? {} : { hint: smsRisk }),
          })
        : undefined;
  const disclaimers = new Disclaimers(step, answer.disclaimers_required ?? []);
  if (code) {
    step.submit("Continue", async () => {
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
    offerPasskey(flow, step, answer, disclaimers, (check) => step.submit("Use your passkey", check));
  }
  if (code && way === "code" && !app) {
    const renew = step.action("Send a new code", async () => {
      const reply = await flow.send(calls.renew);
      if (reply.answer.status === "success") {
        step.notice(`We sent a new code to ${reply.answer.user_phone ?? answer.user_phone}.`);
        return;
      }
      flow.fail(step, reply, { "request.ratelimit.exceeded": "A new code cannot be sent yet." });
      if (reply.retryAfterSeconds) disableFor(renew, reply.retryAfterSeconds, code);
    });
  }
  const otherWays: Record<Way, string> = {
    passkey: "Use your passkey instead",
    code: app ? "Use a code from the app instead" : "Use a code from an SMS instead",
    backupCode: "Use a backup code instead",
  };
  for (const other of ways.filter((each) => each !== way))
    step.action(otherWays[other], () => showOtp(flow, answer, calls, other));
  step.show();
}

/** The step of one way, its title saying what it asks for. */
function stepOf(way: Way, app: boolean, phone: string | undefined): Step {
  if (way === "passkey")
    return new Step(
      "Use your passkey",
      "Confirm that it is you with your passkey: your device asks for your PIN, fingerprint or face.",
    );
  if (way === "backupCode")
    return new Step("Enter a backup code", "Use one of the backup codes you saved. Each works once.");
  if (app)
    return new Step(
      "Enter the code from your authenticator app",
      "Open the app and enter the 6-digit code it shows.",
    );
  return new Step("Enter the code from the SMS", `We sent a 6-digit code to ${phone}.`);
}
