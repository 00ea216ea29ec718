import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { texts } from "../texts.js";
import { Step } from "../view.js";

const words = texts.newPassword;

/** setpassword and recovery-setpassword: a new password, with the company's rules as its hint. */
export function showNewPassword(flow: Flow, answer: Answer): void {
  const recovery = answer.session_state === "recovery-setpassword";
  const step = new Step(words.title, recovery ? words.afterRecovery : words.required);
  // The gateway describes every rule of this user's new password (docs/security.md, "Passwords").
  const rules = answer.password_regex_description ?? "";
  step.username(flow.loginId);
  const password = step.field({
    label: words.label,
    name: "new_password",
    type: "password",
    autocomplete: "new-password",
    hint: rules,
  });
  step.submit(words.submit, async () => {
    const reply = await flow.send("setpassword", { new_password: password.value });
    if (reply.answer.status === "error") {
      // The 422 names the rule the password breaks.
      const broken = reply.answer.password_regex_description ?? rules;
      flow.fail(step, reply, { "request.validation.failed": words.refused(broken) });
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

/** After a recovery: no session is left (every session of the user ended); the user signs in anew. */
function showPasswordChanged(flow: Flow): void {
  const step = new Step(words.changedTitle, words.changedIntro);
  step.submit(words.signIn, () => flow.restart());
  step.show();
}
