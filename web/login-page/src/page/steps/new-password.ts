import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { Step } from "../view.js";
import { text } from "../words.js";

/** setpassword and recovery-setpassword: a new password, with the company's rules as its hint. */
export function showNewPassword(flow: Flow, answer: Answer): void {
  const recovery = answer.session_state === "recovery-setpassword";
  const step = new Step(
    text("newPassword.title"),
    text(recovery ? "newPassword.introRecovery" : "newPassword.introRequired"),
  );
  // The gateway describes every rule of this user's new password (docs/security.md, "Passwords").
  const rules = answer.password_regex_description ?? "";
  step.username(flow.loginId);
  const password = step.field({
    label: text("newPassword.label"),
    name: "new_password",
    type: "password",
    autocomplete: "new-password",
    hint: rules,
  });
  step.submit(text("newPassword.save"), async () => {
    const reply = await flow.send("setpassword", { new_password: password.value });
    if (reply.answer.status === "error") {
      // The 422 names the rule the password breaks.
      const broken = reply.answer.password_regex_description ?? rules;
      flow.fail(step, reply, {
        "request.validation.failed": text("newPassword.refused", { rules: broken }),
      });
      password.focus();
    } else if (recovery) {
      flow.end();
      showPasswordChanged(flow);
    } else {
      flow.next(reply.answer);
    }
  });
  step.show();
}

/** After a recovery, or a change that ended this session too: no session is left; the user signs in anew. */
export function showPasswordChanged(flow: Flow): void {
  const step = new Step(text("passwordChanged.title"), text("passwordChanged.intro"));
  step.submit(text("common.signIn"), () => flow.restart());
  step.show();
}
