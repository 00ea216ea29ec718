import type { Answer } from "../api.js";
import { Captcha } from "../captcha.js";
import { Disclaimers } from "../disclaimers.js";
import type { Flow } from "../flow.js";
import { offerPasskey } from "../passkey-ceremony.js";
import { clearWhenWrong } from "../typed-secret.js";
import { Step } from "../view.js";
import { text } from "../words.js";
import { showRecoveryStart } from "./recovery-start.js";

/**
 * checkpassword: the password, with the disclaimers to accept and, after failed attempts, the
 * captcha; or the user's passkey instead, when the company lets it replace the password and the
 * second factor (the answer has its options; docs/decisions.md, "Passkeys").
 */
export function showPassword(flow: Flow, answer: Answer): void {
  const step = new Step(text("password.title"), text("password.intro", { loginId: flow.loginId }));
  step.username(flow.loginId);
  const password = step.field({
    label: text("password.label"),
    name: "password",
    type: "password",
    autocomplete: "current-password",
  });
  const disclaimers = new Disclaimers(step, answer.disclaimers_required ?? []);
  const captcha = new Captcha(step, answer.captcha_required === true);
  step.submit(text("common.signIn"), async () => {
    const reply = await flow.send("checkpassword", {
      password: password.value,
      ...captcha.fields(),
      ...disclaimers.fields(),
    });
    flow.proceed(step, reply);
    const refusal = reply.answer;
    if (refusal.status === "success") return;
    if (refusal.captcha_required !== undefined) captcha.ask(refusal.captcha_required);
    if (refusal.disclaimers_required) disclaimers.update(refusal.disclaimers_required);
    clearWhenWrong(reply, password);
  });
  offerPasskey(flow, step, answer, disclaimers, (check) =>
    step.action(text("common.usePasskeyInstead"), check),
  );
  step.action(text("common.forgotPassword"), () => showRecoveryStart(flow));
  step.action(text("password.someoneElse"), () => {
    flow.loginId = "";
    flow.restart();
  });
  step.show();
}
